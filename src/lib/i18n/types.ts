/**
 * The shapes of kitauth's message catalogues. A message is text with `{name}` placeholders, or a
 * plural message: one text per CLDR plural category (`Intl.PluralRules`), chosen by its `count`
 * parameter. English (`en.ts`) is the source of the keys: every other catalogue is checked
 * against it, by TypeScript here and by a test for the shipped ones.
 */
import type { en } from './en.js';
import type { PluralMessage } from './message.js';

export type { Message, PluralMessage } from './message.js';

/** Every key kitauth has a message for. */
export type MessageKey = keyof typeof en;

/** Keys whose message is a plural message (they take a `count`). */
export type PluralKey = { [K in MessageKey]: (typeof en)[K] extends string ? never : K }[MessageKey];

/** A whole catalogue: a message for every key, plain or plural as English has it. */
export type Catalogue = { readonly [K in MessageKey]: (typeof en)[K] extends string ? string : PluralMessage };

/** Some messages of a catalogue: an app's overrides, or a locale of its own (the rest is English). */
export type Messages = { readonly [K in MessageKey]?: Catalogue[K] };

/** Overrides and added locales by BCP 47 tag: `{ en: { 'signIn.heading': 'Welcome back' }, nl: {…} }`. */
export type LocaleMessages = { readonly [locale: string]: Messages | undefined };

/** The `{name}` placeholders of a text, as a union of names. */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

type TextOf<M> = M extends string ? M : M extends { other: infer O extends string } ? O : never;

/**
 * The parameters a key takes, from its English text: `{provider}` → `{ provider: string }`; a
 * plural message also takes `count`.
 */
export type Params<K extends MessageKey> = { [P in Placeholders<TextOf<(typeof en)[K]>> | (K extends PluralKey ? 'count' : never)]: P extends 'count' ? number : string | number };

/** Keys that take no parameters. */
export type PlainKey = { [K in MessageKey]: keyof Params<K> extends never ? K : never }[MessageKey];

/** A piece of a message split at its placeholders (to wrap a value in markup, e.g. `<strong>`). */
export type Piece = { text: string; param?: undefined } | { text: string; param: string };

/** Writing direction of a locale's script. */
export type Direction = 'ltr' | 'rtl';
