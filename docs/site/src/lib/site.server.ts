import data from 'virtual:kitauth-docs';
import { referencePage } from '../../build-time/search-index.ts';

export interface NavLink {
	slug: string;
	title: string;
	href: string;
}

const titles = new Map<string, string>([
	...data.guides.map((g): [string, string] => [g.slug, g.title]),
	[data.referencePage.slug, data.referencePage.title]
]);

const hrefOf = (slug: string) => (slug === 'index' ? './' : slug);

/** The sidebar's groups, each link with its page's title (its `# heading`). */
export const nav = data.nav.map(({ group, slugs }) => ({
	group,
	links: slugs.map((slug): NavLink => ({ slug, title: titles.get(slug) ?? slug, href: hrefOf(slug) }))
}));

const order = nav.flatMap((group) => group.links);

/** The pages before and after one, in the sidebar's order. */
export function neighbours(slug: string): { previous: NavLink | null; next: NavLink | null } {
	const at = order.findIndex((link) => link.slug === slug);
	return { previous: order[at - 1] ?? null, next: order[at + 1] ?? null };
}

/** A guide as its page shows it (the sections' texts are for the search index only). */
export function guide(slug: string) {
	const page = data.guides.find((g) => g.slug === slug);
	return page && { ...page, sections: page.sections.map((section) => ({ ...section, text: '' })) };
}

export const guideSlugs = data.guides.map((g) => g.slug).filter((slug) => slug !== 'index');
export const reference = data.reference;
export const searchEntries = data.search;

/** One entry point's reference, with the entry points before and after it. */
export function referenceEntry(page: string) {
	const at = data.reference.findIndex((entry) => referencePage(entry.specifier) === page);
	const link = (i: number): NavLink | null => {
		const entry = data.reference[i];
		return entry ? { slug: referencePage(entry.specifier), title: entry.specifier, href: referencePage(entry.specifier) } : null;
	};
	return at < 0 ? undefined : { entry: data.reference[at]!, previous: link(at - 1) ?? { ...order.find((l) => l.slug === 'reference')! }, next: link(at + 1) };
}

export const referencePages = data.reference.map((entry) => referencePage(entry.specifier));
