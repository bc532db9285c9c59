// The site's data (build-time/plugin.ts), made in Node when the site is built.
declare module 'virtual:kitauth-docs' {
	const data: {
		nav: { group: string; slugs: string[] }[];
		referencePage: { slug: string; title: string };
		guides: import('../build-time/markdown.ts').Page[];
		reference: import('../build-time/reference.ts').EntryDoc[];
		search: import('../build-time/search-index.ts').SearchEntry[];
	};
	export default data;
}
