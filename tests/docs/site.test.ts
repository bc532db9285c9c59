/**
 * The docs site's build-time parts: Markdown rendered with GitHub's heading anchors and links
 * that work both on GitHub (`x.md#a`) and on the site (`x#a`), and the search over the shipped
 * index.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGuides } from '../../docs/site/build-time/guides.ts';
import { renderPage, siteHref, slugger } from '../../docs/site/build-time/markdown.ts';
import { searchIndex } from '../../docs/site/build-time/search-index.ts';
import { search } from '../../docs/site/src/lib/search.ts';
import { root, sampleSources } from './samples.ts';

const guides = loadGuides(join(import.meta.dirname, '../../docs/content'));

/**
 * The lines where a Markdown file's code fences go wrong: a fence closed with text after it
 * ("``` Workers need…" closes nothing in CommonMark, so the page goes on as code) and a fence
 * never closed (the rest of the file is its code).
 */
function fenceProblems(text: string): number[] {
	const problems: number[] = [];
	let open: { line: number; marker: string } | null = null;
	for (const [index, line] of text.split('\n').entries()) {
		const match = /^[ \t]*(`{3,}|~{3,})(.*)$/.exec(line);
		if (!match) continue;
		const [, marker = '', rest = ''] = match;
		if (!open) open = { line: index + 1, marker };
		else if (marker[0] === open.marker[0] && marker.length >= open.marker.length) {
			if (rest.trim()) problems.push(index + 1);
			else open = null;
		}
	}
	if (open) problems.push(open.line);
	return problems;
}

describe('the guides', () => {
	it('anchor headings as GitHub does, repeats numbered', () => {
		const slug = slugger();
		expect(slug('3. Read the session in `load`')).toBe('3-read-the-session-in-load');
		expect(slug("Database: kitauth's adapters")).toBe('database-kitauths-adapters');
		expect(slug('Edge runtimes (Cloudflare Workers, Deno, Vercel Edge)')).toBe('edge-runtimes-cloudflare-workers-deno-vercel-edge');
		expect(slug('3. Read the session in `load`')).toBe('3-read-the-session-in-load-1');
	});

	it('link to each other by file on GitHub and by page on the site; repository files are text', () => {
		expect(siteHref('sessions.md#session-cookies')).toBe('sessions#session-cookies');
		expect(siteHref('./index.md')).toBe('./');
		expect(siteHref('https://example.com/x.md')).toBe('https://example.com/x.md');
		expect(siteHref('../../src/lib/index.ts')).toBeNull();
		const page = renderPage('x', '# X\n\nSee [a](sessions.md#b), [c](../../README.md) and <script>alert(1)</script>`<b>`.\n\n```ts\nconst a = "<b>";\n```\n');
		expect(page.html).toContain('<a href="sessions#b">a</a>');
		expect(page.html).toContain('<span class="repo-link">c</span>');
		expect(page.html).toContain('&#60;b&#62;');
	});

	it('close every code fence they open, on a line of its own (the guides and the README)', () => {
		expect(fenceProblems('```ts\nconst a = 1;\n``` Then prose.\n')).toEqual([3, 1]);
		const problems = sampleSources().flatMap((file) => fenceProblems(readFileSync(join(root, file), 'utf8')).map((line) => `${file}:${line}`));
		expect(problems).toEqual([]);
	});

	it('every link between guides lands on a heading that exists', () => {
		const ids = new Map(guides.map((g) => [g.slug, new Set([...g.html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]))]));
		const broken: string[] = [];
		for (const guide of guides) {
			for (const [, href] of guide.html.matchAll(/<a href="([^"]+)"/g)) {
				if (!href || /^[a-z]+:/.test(href) || href === './') continue;
				const [page = '', hash] = href.split('#');
				const target = page === '' ? guide.slug : page;
				if (!ids.has(target) || (hash && !ids.get(target)?.has(hash))) broken.push(`${guide.slug}: ${href}`);
			}
		}
		expect(broken).toEqual([]);
	});
});

describe('search', () => {
	const index = searchIndex(guides, [
		{ specifier: 'kitauth', source: 'src/lib/index.ts', doc: '', docHtml: '', exports: [{ name: 'safeCallbackUrl', kind: 'function', signature: 'safeCallbackUrl(…)', doc: 'The check for a return address.', docHtml: '' }] }
	]);

	it('finds a section by its heading and words, best first', () => {
		const hits = search(index, 'session cookies');
		expect(hits[0]).toMatchObject({ title: 'Session cookies', href: 'sessions#session-cookies' });
		expect(search(index, 'safeCallbackUrl').map((h) => h.href)).toContain('reference-kitauth#safeCallbackUrl');
	});

	it('needs every word, and finds nothing for nothing', () => {
		expect(search(index, 'passkey zzzzqqq')).toEqual([]);
		expect(search(index, '   ')).toEqual([]);
	});
});
