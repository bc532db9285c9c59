declare module 'virtual:kitauth-docs' {
	import type { Page } from '../build-time/markdown.ts';
	import type { EntryDoc } from '../build-time/reference.ts';
	import type { SearchEntry } from '../build-time/search-index.ts';
	const data: {
		nav: { group: string; slugs: string[] }[];
		referencePage: { slug: string; title: string };
		guides: Page[];
		reference: EntryDoc[];
		search: SearchEntry[];
	};
	export default data;
}
