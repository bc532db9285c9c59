import { neighbours, reference } from '../../lib/site.server.ts';

/** The entry points, each with its doc comment's first sentence: the pages are per entry point. */
export const load = () => ({
	entries: reference.map((entry) => ({
		specifier: entry.specifier,
		count: entry.exports.length,
		summary: /^[^]*?[.:](?=\s|$)/.exec(entry.doc.replace(/\s+/g, ' '))?.[0] ?? ''
	})),
	...neighbours('reference')
});
