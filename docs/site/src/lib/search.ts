import type { SearchEntry } from '../../build-time/search-index.ts';

export type { SearchEntry };

export interface Hit extends SearchEntry {
	/** A few words of the text around the first match. */
	excerpt: string;
}

/** The query's words, lower case: every one must be found for an entry to match. */
function terms(query: string): string[] {
	return query.toLowerCase().split(/[^\p{L}\p{N}_$.@/-]+/u).filter((t) => t.length > 0);
}

/**
 * Searches the index in the browser (no request anywhere): entries holding every word of the
 * query, titles weighing most, then the page's name, then how often the words occur.
 */
export function search(index: SearchEntry[], query: string, limit = 12): Hit[] {
	const words = terms(query);
	if (words.length === 0) return [];
	const scored: { entry: SearchEntry; score: number; at: number }[] = [];
	for (const entry of index) {
		const title = entry.title.toLowerCase();
		const page = entry.page.toLowerCase();
		const text = entry.text.toLowerCase();
		let score = 0;
		let at = -1;
		let all = true;
		for (const word of words) {
			const inTitle = title.includes(word);
			const inPage = page.includes(word);
			const first = text.indexOf(word);
			if (!inTitle && !inPage && first < 0) {
				all = false;
				break;
			}
			if (at < 0) at = first;
			score += (title === word ? 30 : 0) + (inTitle ? 10 : 0) + (inPage ? 3 : 0) + Math.min(5, text.split(word).length - 1);
		}
		if (all) scored.push({ entry, score, at });
	}
	scored.sort((a, b) => b.score - a.score);
	return scored.slice(0, limit).map(({ entry, at }) => ({ ...entry, excerpt: excerpt(entry.text, at) }));
}

function excerpt(text: string, at: number): string {
	if (at < 0) return text.slice(0, 110) + (text.length > 110 ? '…' : '');
	const start = Math.max(0, at - 40);
	return (start > 0 ? '…' : '') + text.slice(start, start + 110) + (start + 110 < text.length ? '…' : '');
}
