import { dev } from '$app/env';
import { redirect } from '@sveltejs/kit';
import { listProviders } from '#lib';
import { authConfig, signIn } from '../../../demo/auth.js';
import { localPath } from '../../../demo/local-path.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	// `redirectTo` from the demo's links; `callbackUrl` when the core sends a failed sign-in here.
	const redirectTo = localPath(url.searchParams.get('redirectTo') ?? url.searchParams.get('callbackUrl'), url.origin);
	if ((await locals.auth())?.user) {
		// Signed in already: go on, but never back here (a redirect loop).
		const onward = redirectTo && new URL(redirectTo, url.origin).pathname !== url.pathname ? redirectTo : '/account';
		redirect(303, onward);
	}
	return {
		providers: listProviders(authConfig),
		redirectTo,
		error: url.searchParams.get('error'),
		// In development without an SMTP server, email sign-in writes to the outbox page.
		outbox: dev && !process.env.AUTH_EMAIL_SERVER
	};
};

export const actions: Actions = { signIn };
