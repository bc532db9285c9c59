/**
 * The demo's language switch: a cookie that the demo's `i18n.locale` reads, set from `?lang=` by
 * the layout's load. Only a shipped locale is taken; anything else (or no cookie) leaves the
 * choice to `Accept-Language`.
 */
import { SHIPPED_LOCALES } from '#lib/i18n/index.js';

export const LOCALE_COOKIE = 'demo-locale';

/** `tag` when it is a shipped locale, else undefined (the value is anyone's). */
export function shippedLocale(tag: string | null | undefined): string | undefined {
	return SHIPPED_LOCALES.find((locale) => locale === tag);
}

/** The locale the visitor picked (the cookie), for the demo's `i18n.locale`. */
export function demoLocale(request: Request): string | undefined {
	const cookie = request.headers.get('cookie') ?? '';
	return shippedLocale(new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([\\w-]{1,16})`).exec(cookie)?.[1]);
}

/** The switcher's choices: each language by its own name ("Deutsch", "العربية"). */
export const LANGUAGES = SHIPPED_LOCALES.map((tag) => ({ tag, name: new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag }));
