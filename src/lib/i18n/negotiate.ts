/**
 * Choosing a locale: `Accept-Language` (RFC 9110 §12.5.4) parsed with its q-values, then matched
 * against the locales there are messages for (RFC 4647 §3.4 lookup, then any locale of the same
 * language: `pt-PT` is served `pt-BR` before it is served the fallback).
 */

/** One language range of an `Accept-Language` header and its weight. */
export interface LanguageRange {
	/** A language tag (`de-CH`) or `*`. */
	tag: string;
	/** 0 to 1; 0 means "not acceptable". */
	q: number;
}

/** A header is anyone's: at most this much of it is read, and this many ranges. */
const MAX_HEADER = 1024;
const MAX_RANGES = 32;
const RANGE = /^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/i;
const WEIGHT = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/**
 * The ranges of an `Accept-Language` value, most wanted first (ties keep the header's order).
 * Malformed ranges and weights are skipped, as the RFC asks; ranges with `q=0` are kept (they
 * exclude a language).
 */
export function parseAcceptLanguage(header: string | null | undefined): LanguageRange[] {
	if (!header) return [];
	const ranges: (LanguageRange & { index: number })[] = [];
	for (const [index, part] of header.slice(0, MAX_HEADER).split(',').slice(0, MAX_RANGES).entries()) {
		const [rawTag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
		if (!RANGE.test(rawTag)) continue;
		let q = 1;
		const weight = parameters.find((parameter) => /^q=/i.test(parameter));
		if (weight !== undefined) {
			if (!WEIGHT.test(weight)) continue;
			q = Number(weight.slice(2));
		}
		ranges.push({ tag: rawTag, q, index });
	}
	return ranges.sort((a, b) => b.q - a.q || a.index - b.index).map(({ tag, q }) => ({ tag, q }));
}

const languageOf = (tag: string) => tag.split('-')[0]!.toLowerCase();

/**
 * The best of `available` for what the user asked (`Accept-Language`'s value, or tags in order of
 * preference, e.g. `navigator.languages`), else `fallback`. For each range, most wanted first:
 * the same tag, then the tag cut back subtag by subtag (`de-CH` → `de`), then another region of
 * its language (`pt-PT` → `pt-BR`); `*` takes the first available locale not refused with `q=0`.
 */
export function negotiateLocale(
	asked: string | readonly string[] | null | undefined,
	available: readonly string[],
	fallback: string = available[0] ?? 'en'
): string {
	const ranges: LanguageRange[] =
		typeof asked === 'string' || asked == null ? parseAcceptLanguage(asked) : asked.filter((tag) => RANGE.test(tag)).map((tag) => ({ tag, q: 1 }));
	const refused = new Set(ranges.filter((range) => range.q === 0).map((range) => range.tag.toLowerCase()));
	const usable = available.filter((tag) => !refused.has(tag.toLowerCase()));
	const byTag = new Map(usable.map((tag) => [tag.toLowerCase(), tag]));
	for (const { tag, q } of ranges) {
		if (q === 0) continue;
		if (tag === '*') {
			if (usable[0]) return usable[0];
			continue;
		}
		const parts = tag.toLowerCase().split('-');
		for (let length = parts.length; length > 0; length--) {
			// A single-letter subtag (an extension's or private use's singleton) is never left at the end.
			if (length < parts.length && parts[length - 1]!.length === 1) continue;
			const found = byTag.get(parts.slice(0, length).join('-'));
			if (found) return found;
		}
		const sameLanguage = usable.find((candidate) => languageOf(candidate) === parts[0]);
		if (sameLanguage) return sameLanguage;
	}
	return fallback;
}
