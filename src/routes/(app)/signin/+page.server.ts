import { dev } from '$app/env';
import { redirect } from '@sveltejs/kit';
import { listProviders, safeCallbackUrl } from '#lib';
import { authConfig, signIn } from '../../../demo/auth.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	// `redirectTo` from the demo's links; `callbackUrl` when the core sends a failed sign-in here.
	// Both are anyone's: only a path or a URL of this site is carried on.
	const safe = safeCallbackUrl(url.searchParams.get('redirectTo') ?? url.searchParams.get('callbackUrl'), url.origin);
	// Carried on as a path (the core sends our own absolute URL).
	const target = safe ? new URL(safe, url.origin) : undefined;
	const redirectTo = target && `${target.pathname}${target.search}${target.hash}`;
	if ((await locals.auth())?.user) {
		// Signed in already: go on, but never back here (a redirect loop).
		const onward = redirectTo && new URL(redirectTo, url.origin).pathname !== url.pathname ? redirectTo : '/account';
		redirect(303, onward);
	}
	return {
		providers: listProviders(authConfig),
		redirectTo,
		error: url.searchParams.get('error'),
		// The demo's passkey sign-up, beside sign-in (whose step 2 is the same for every address).
		passkeyFields: { email: { label: 'E-mail for a new passkey account (optional)', type: 'email', autocomplete: 'email' } },
		// In development without an SMTP server, email sign-in writes to the outbox page.
		outbox: dev && !process.env.AUTH_EMAIL_SERVER
	};
};

export const actions: Actions = { signIn };
