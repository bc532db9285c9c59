import { redirect } from '@sveltejs/kit';
import { listProviders } from '#lib';
import { authConfig, signIn } from '../../demo/auth.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const redirectTo = url.searchParams.get('redirectTo') ?? undefined;
	if ((await locals.auth())?.user) redirect(303, redirectTo?.startsWith('/') ? redirectTo : '/account');
	return {
		providers: listProviders(authConfig),
		redirectTo,
		error: url.searchParams.get('error')
	};
};

export const actions: Actions = { signIn };
