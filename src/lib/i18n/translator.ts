/**
 * A translator: the messages of one locale (an app's overrides first, then kitauth's catalogue,
 * then the same language elsewhere, then English), with its plural rules, number and date formats,
 * and writing direction. Pure and synchronous, so a component renders the same text on the server
 * and in the browser.
 */
import { en } from './en.js';
import { CATALOGUES } from './locales.js';
import type { Direction, LocaleMessages, Message, MessageKey, Messages, Params, Piece, PlainKey, PluralKey } from './types.js';

export interface Translator {
	/** The locale the texts and formats are for (`lang`): the asked one when there are messages for its language, else `en`. */
	readonly locale: string;
	/** `rtl` for right-to-left scripts (Arabic, Hebrew, …): the `dir` of what shows the texts. */
	readonly dir: Direction;
	/** The text of `key`, its `{placeholders}` filled in (numbers formatted for the locale). */
	t<K extends PlainKey>(key: K): string;
	t<K extends MessageKey>(key: K, params: Params<K>): string;
	/** The text split at its placeholders, to wrap values in markup (e.g. an address in `<strong>`). */
	pieces<K extends MessageKey>(key: K, params: Params<K>): Piece[];
	/** A date (`Intl.DateTimeFormat`). */
	date(value: Date | string | number, options?: Intl.DateTimeFormatOptions): string;
	/** A time from now (`Intl.RelativeTimeFormat`): `relative(2, 'hour')` → "in 2 hours". */
	relative(value: number, unit: Intl.RelativeTimeFormatUnit): string;
}

/** Scripts written right to left (Unicode's, as `Intl.Locale#maximize()` names them). */
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg', 'Mand', 'Samr', 'Yezi']);

/** `tag` as a canonical locale, or undefined when it is not a well-formed one (input is anyone's). */
function canonical(tag: string | null | undefined): Intl.Locale | undefined {
	if (!tag || tag.length > 64) return undefined;
	try {
		return new Intl.Locale(Intl.getCanonicalLocales(tag)[0]!);
	} catch {
		return undefined;
	}
}

export function directionOf(locale: string): Direction {
	const script = canonical(locale)?.maximize().script;
	return script && RTL_SCRIPTS.has(script) ? 'rtl' : 'ltr';
}

/**
 * Where a key is looked for, in order: the locale and its shorter forms (`de-CH`, `de`), then
 * another locale of its language that has messages (`pt` → `pt-BR`), then English.
 */
function chainOf(locale: Intl.Locale | undefined, known: readonly string[]): string[] {
	const chain: string[] = [];
	if (locale) {
		const parts = locale.toString().split('-');
		for (let length = parts.length; length > 0; length--) chain.push(parts.slice(0, length).join('-'));
		const sibling = known.find((tag) => tag.split('-')[0]!.toLowerCase() === locale.language && !chain.includes(tag));
		if (sibling) chain.push(sibling);
	}
	if (!chain.includes('en')) chain.push('en');
	return chain;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The translator of `locale` (a BCP 47 tag; anything malformed is English), with an app's
 * `messages` (overrides of any key, or locales of its own) before kitauth's catalogues.
 */
export function translator(locale?: string | null, messages?: LocaleMessages): Translator {
	const asked = canonical(locale);
	const known = [...Object.keys(messages ?? {}), ...Object.keys(CATALOGUES)];
	const chain = chainOf(asked, known);
	const hasLanguage = !!asked && chain.slice(0, -1).some((tag) => known.includes(tag));
	const tag = hasLanguage || asked?.language === 'en' ? asked!.toString() : 'en';
	const sources: Messages[] = chain.flatMap((name) => [messages?.[name], CATALOGUES[name]].filter((m): m is Messages => !!m));
	let plurals: Intl.PluralRules | undefined;
	let numbers: Intl.NumberFormat | undefined;

	const lookup = (key: MessageKey): Message => {
		for (const source of sources) {
			// Own keys only: a key is code, but `messages` is the app's object.
			const found = Object.hasOwn(source, key) ? source[key] : undefined;
			if (found !== undefined) return found;
		}
		return en[key];
	};
	const textOf = (key: MessageKey, params: Record<string, string | number> | undefined): string => {
		const message = lookup(key);
		if (typeof message === 'string') return message;
		const count = Number(params?.count);
		const category = Number.isFinite(count) ? (plurals ??= new Intl.PluralRules(tag)).select(count) : 'other';
		return message[category] ?? message.other;
	};
	const value = (params: Record<string, string | number> | undefined, name: string): string | undefined => {
		const given = params && Object.hasOwn(params, name) ? params[name] : undefined;
		if (typeof given === 'number') return (numbers ??= new Intl.NumberFormat(tag)).format(given);
		return given;
	};
	const pieces = (key: MessageKey, params?: Record<string, string | number>): Piece[] => {
		const text = textOf(key, params);
		const out: Piece[] = [];
		let last = 0;
		for (const match of text.matchAll(PLACEHOLDER)) {
			if (match.index > last) out.push({ text: text.slice(last, match.index) });
			const filled = value(params, match[1]!);
			out.push(filled === undefined ? { text: match[0] } : { text: filled, param: match[1]! });
			last = match.index + match[0].length;
		}
		if (last < text.length) out.push({ text: text.slice(last) });
		return out;
	};

	return Object.freeze({
		locale: tag,
		dir: directionOf(tag),
		t: (key: MessageKey, params?: Record<string, string | number>) => pieces(key, params).map((piece) => piece.text).join(''),
		pieces: (key: MessageKey, params: Record<string, string | number>) => pieces(key, params),
		date: (date: Date | string | number, options?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(tag, options).format(new Date(date)),
		relative: (amount: number, unit: Intl.RelativeTimeFormatUnit) => new Intl.RelativeTimeFormat(tag, { numeric: 'auto' }).format(amount, unit)
	}) as Translator;
}

/** Is `key` a plural message in English (so it takes `count`)? */
export function isPluralKey(key: MessageKey): key is PluralKey {
	return typeof en[key] !== 'string';
}
