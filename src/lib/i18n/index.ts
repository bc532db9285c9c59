/**
 * kitauth's messages (`kitauth/i18n`): the catalogues every string of the components, the built-in
 * pages and the sign-in email comes from, and how a locale is chosen. Imports nothing of the rest
 * of kitauth: the core, the components and the browser all use it.
 */
import type { LocaleMessages } from './types.js';

export { en } from './en.js';
export { CATALOGUES, SHIPPED_LOCALES } from './locales.js';
export { negotiateLocale, parseAcceptLanguage, type LanguageRange } from './negotiate.js';
export { directionOf, isPluralKey, translator, type Translator } from './translator.js';
export type {
	Catalogue,
	Direction,
	LocaleMessages,
	Message,
	MessageKey,
	Messages,
	Params,
	Piece,
	PlainKey,
	PluralKey,
	PluralMessage
} from './types.js';

/**
 * Checks an app's messages against the catalogue's keys and shapes (TypeScript), and returns them
 * as they are: `i18n: { messages: defineMessages({ nl: {…}, en: { 'signIn.heading': 'Welcome back' } }) }`.
 */
export function defineMessages(messages: LocaleMessages): LocaleMessages {
	return messages;
}
