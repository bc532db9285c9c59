import { redirect } from '@sveltejs/kit';
import { locale } from '../../demo/auth.js';
import { LOCALE_COOKIE, shippedLocale } from '../../demo/locale.js';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = async (event) => {
	const { locals, url, cookies } = event;
	// The language switcher (a GET form, so it works without JavaScript): `?lang=de` keeps the
	// choice in a cookie the demo's `i18n.locale` reads; an empty or unknown value forgets it.
	const asked = url.searchParams.get('lang');
	if (asked !== null) {
		const tag = shippedLocale(asked);
		if (tag) cookies.set(LOCALE_COOKIE, tag, { path: '/', httpOnly: true, sameSite: 'lax', secure: url.protocol === 'https:', maxAge: 31_536_000 });
		else cookies.delete(LOCALE_COOKIE, { path: '/' });
		const clean = new URL(url);
		clean.searchParams.delete('lang');
		redirect(303, `${clean.pathname}${clean.search}${clean.hash}`);
	}
	// The request's language as kitauth decides it (the cookie, else Accept-Language), for the
	// components; and what the visitor picked, for the switcher.
	return { session: await locals.auth(), locale: await locale(event), picked: shippedLocale(cookies.get(LOCALE_COOKIE)) };
};
