import { Marked, type Tokens } from 'marked';

/** One guide, rendered: what the page, the sidebar and the search index read. */
export interface Page {
	slug: string;
	title: string;
	html: string;
	/** The page's sections (h2 and h3), for the table of contents and the search index. */
	sections: Section[];
}

export interface Section {
	id: string;
	heading: string;
	depth: number;
	/** The section's words as plain text (code included), for search. */
	text: string;
}

/**
 * GitHub's heading anchors (lower case, punctuation dropped, spaces to dashes, `-1`… for
 * repeats), so a link such as `sessions.md#session-cookies` lands on the same heading on GitHub
 * and on the site.
 */
export function slugger(): (text: string) => string {
	const seen = new Map<string, number>();
	return (text) => {
		const base = text
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}_\- ]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		return count ? `${base}-${count}` : base;
	};
}

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Where a link in a guide goes on the site: `x.md#a` → `x#a` (every page is one level deep),
 * `index.md` → the home page. Links out of docs/content (the repository's files) have no page on
 * the site: the caller shows their text alone.
 */
export function siteHref(href: string): string | null {
	if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
	const match = /^(?:\.\/)?([a-z0-9-]+)\.md(#.*)?$/.exec(href);
	if (!match) return null;
	const [, slug, hash = ''] = match;
	return (slug === 'index' ? './' : slug) + hash;
}

/**
 * Images a guide shows from the repository (`<img src="../../tests/…png">`, so GitHub shows them
 * too): the site serves them from `repo-files/`, where its adapter copies them.
 */
const REPO_IMAGE = /src="\.\.\/\.\.\/([\w./-]+\.(?:png|svg|jpg))"/g;
export const REPO_FILES = 'repo-files';

export function repoImages(markdown: string): string[] {
	return [...markdown.matchAll(REPO_IMAGE)].map((match) => match[1] ?? '').filter((path) => !path.includes('..'));
}

/** Words of a token tree as plain text. */
function plain(tokens: Tokens.Generic[] | undefined): string {
	if (!tokens) return '';
	return tokens
		.map((t) => (t.tokens ? plain(t.tokens) : 'text' in t && typeof t.text === 'string' ? t.text : ''))
		.join('');
}

/** Renders one guide's Markdown to HTML, with anchored headings and site links. */
export function renderPage(slug: string, markdown: string): Page {
	const slug_of = slugger();
	const sections: Section[] = [];
	let title = slug;
	const marked = new Marked({ gfm: true });
	marked.use({
		renderer: {
			heading({ tokens, depth }) {
				const inner = this.parser.parseInline(tokens);
				const text = plain(tokens);
				const id = slug_of(text);
				if (depth === 1) {
					title = text;
					return `<h1 id="${id}">${inner}</h1>\n`;
				}
				if (depth <= 3) sections.push({ id, heading: text, depth, text: '' });
				return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-label="Link to this section: ${escapeHtml(text)}">#</a>${inner}</h${depth}>\n`;
			},
			link({ href, tokens }) {
				const inner = this.parser.parseInline(tokens);
				const target = siteHref(href);
				return target === null ? `<span class="repo-link">${inner}</span>` : `<a href="${escapeHtml(target)}">${inner}</a>`;
			},
			html({ text }) {
				return text.replace(REPO_IMAGE, (_, path: string) => `src="${REPO_FILES}/${path}"`);
			},
			code({ text, lang }) {
				const language = (lang ?? '').split(/\s+/)[0] ?? '';
				const label = language ? ` data-lang="${escapeHtml(language)}"` : '';
				return `<pre tabindex="0"${label}><code>${escapeHtml(text)}</code></pre>\n`;
			}
		}
	});
	// Section texts for search: the words between one h2/h3 and the next (top-level headings, in
	// the order the renderer meets them).
	const tokens = marked.lexer(markdown);
	const texts: string[] = [];
	let intro = '';
	for (const token of tokens) {
		if (token.type === 'heading' && token.depth > 1 && token.depth <= 3) {
			texts.push('');
			continue;
		}
		const words = token.type === 'code' ? String(token.text) : 'tokens' in token && token.tokens ? plain(token.tokens) : token.raw;
		if (texts.length === 0) intro += ` ${words}`;
		else texts[texts.length - 1] += ` ${words}`;
	}
	const html = marked.parser(tokens);
	sections.forEach((section, i) => (section.text = squash(texts[i] ?? '')));
	return { slug, title, html, sections: [{ id: '', heading: title, depth: 1, text: squash(intro) }, ...sections] };
}

function squash(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}
