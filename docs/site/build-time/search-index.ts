import type { Page } from './markdown.ts';
import type { EntryDoc } from './reference.ts';

/** One searchable place: a guide's section or a reference entry. */
export interface SearchEntry {
	/** Where it is on the site, relative to the site's root: `sessions#session-cookies`. */
	href: string;
	title: string;
	/** The page it is on, shown under the title. */
	page: string;
	text: string;
}

/** Every guide section and every export, shipped with the site as /search.json. */
export function searchIndex(guides: Page[], reference: EntryDoc[]): SearchEntry[] {
	const entries: SearchEntry[] = [];
	for (const guide of guides) {
		const base = guide.slug === 'index' ? './' : guide.slug;
		for (const section of guide.sections) {
			entries.push({ href: section.id ? `${base}#${section.id}` : base, title: section.heading, page: guide.title, text: section.text });
		}
	}
	for (const entry of reference) {
		for (const item of entry.exports) {
			entries.push({ href: `${referencePage(entry.specifier)}#${item.name}`, title: item.name, page: `${entry.specifier} (${item.kind})`, text: item.doc });
		}
	}
	return entries;
}

/** The page of an entry point's reference: `reference-kitauth-core` (each export is an anchor on it). */
export function referencePage(specifier: string): string {
	return `reference-${specifier.replace(/[^a-z0-9]+/gi, '-')}`;
}
