import { negotiateLocale, SHIPPED_LOCALES, type Translator, translator } from '../i18n/index.js';
import type { I18nConfig } from './types/config.js';

/**
 * The locale of a request: the app's (`i18n.locale`, a tag or a function of the request; nothing
 * from it lets the request decide), else `Accept-Language` negotiated among the shipped locales
 * and the app's own (`i18n.messages`), else English. Without a request (a server-side call that
 * has none), the app's fixed locale or English.
 */
export function requestLocale(i18n: Readonly<I18nConfig>, request?: Request): string {
	const chosen = typeof i18n.locale === 'function' ? (request ? i18n.locale(request) : undefined) : i18n.locale;
	if (chosen) return chosen;
	const available = [...new Set([...SHIPPED_LOCALES, ...Object.keys(i18n.messages ?? {})])];
	return negotiateLocale(request?.headers.get('accept-language'), available, 'en');
}

/** The translator of a request (see {@link requestLocale}), with the app's messages. */
export function requestTranslator(i18n: Readonly<I18nConfig>, request?: Request): Translator {
	return translator(requestLocale(i18n, request), i18n.messages);
}
