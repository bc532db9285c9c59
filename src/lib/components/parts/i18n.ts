/**
 * The locale of the components: each takes `locale` and `messages` props, and otherwise uses what
 * an app set once for every kitauth component below it (`setAuthI18n` in a layout), else English.
 * A context of Svelte's, not SvelteKit's: the built-in pages render the same parts in plain Node.
 */
import { getContext, setContext } from 'svelte';
import { type LocaleMessages, type Messages, type Translator, translator } from '../../i18n/index.js';

/** The props every component takes for its texts. */
export interface I18nProps {
	/** A BCP 47 tag (`de`, `pt-BR`, `ar`): the catalogue, plural rules, date formats and direction. */
	locale?: string | null;
	/** Overrides of any message, or locales of the app's own: `{ en: { 'signIn.heading': 'Welcome back' } }`. */
	messages?: LocaleMessages;
}

const KEY = Symbol.for('kitauth.i18n');

/**
 * Sets the locale and messages of every kitauth component below (call it in a layout's script).
 * `value` is a function, read whenever a component renders, so a change of locale reaches them.
 */
export function setAuthI18n(value: () => I18nProps): void {
	setContext(KEY, value);
}

/** What the app set with `setAuthI18n` (call while a component initialises). */
export function i18nContext(): () => I18nProps {
	return getContext<(() => I18nProps) | undefined>(KEY) ?? (() => ({}));
}

/** A component's translator: its own props first, then the context's. */
export function translatorOf(props: I18nProps, context: I18nProps): Translator {
	const messages: Record<string, Messages | undefined> = { ...context.messages };
	for (const [locale, own] of Object.entries(props.messages ?? {})) messages[locale] = { ...messages[locale], ...own };
	return translator(props.locale ?? context.locale, messages);
}
