import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPage, type Page } from './markdown.ts';

/** The sidebar: every guide in docs/content, in reading order, under its group. */
export const NAV: { group: string; slugs: string[] }[] = [
	{ group: 'Start', slugs: ['index', 'getting-started', 'configuration', 'cli'] },
	{ group: 'Signing in', slugs: ['oauth', 'email', 'passwords', 'credentials', 'passkeys', 'two-factor'] },
	{ group: 'Running it', slugs: ['sessions', 'databases', 'rate-limiting', 'edge', 'security'] },
	{ group: 'User interface', slugs: ['components', 'languages', 'remote-functions'] },
	{ group: 'Reference', slugs: ['auth-js', 'rest', 'core', 'errors', 'reference', 'architecture', 'repository'] }
];

/** The generated reference's page: in the sidebar, not a Markdown file. */
export const REFERENCE = { slug: 'reference', title: 'API reference' };

/** Reads and renders every guide; a file missing from the sidebar, or a sidebar entry without its file, stops the build. */
export function loadGuides(contentDir: string): Page[] {
	const files = readdirSync(contentDir).filter((name) => name.endsWith('.md'));
	const listed = NAV.flatMap((group) => group.slugs).filter((slug) => slug !== REFERENCE.slug);
	const onDisk = files.map((name) => name.slice(0, -3));
	const unlisted = onDisk.filter((slug) => !listed.includes(slug));
	const missing = listed.filter((slug) => !onDisk.includes(slug));
	if (unlisted.length || missing.length) {
		throw new Error(`docs: guides not in the sidebar (build-time/guides.ts): ${unlisted.join(', ') || 'none'}; in it without a file: ${missing.join(', ') || 'none'}`);
	}
	return listed.map((slug) => renderPage(slug, readFileSync(join(contentDir, `${slug}.md`), 'utf8')));
}
