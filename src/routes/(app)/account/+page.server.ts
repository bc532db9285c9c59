import { fail, redirect } from '@sveltejs/kit';
import { listProviders } from '#lib';
import { accounts, authConfig, sessions } from '../../../demo/auth.js';
import { demoStrategy } from '../../../demo/database.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const session = await locals.auth();
	if (!session?.user) redirect(303, `/signin?redirectTo=${encodeURIComponent(url.pathname)}`);
	return {
		user: session.user,
		expires: session.expires,
		sessions: demoStrategy() === 'database' ? await sessions.list() : null,
		accounts: await accounts.list(),
		// Providers a signed-in user can link: signing in with one while signed in links it.
		linkable: listProviders(authConfig).filter((p) => p.type === 'oauth' || p.type === 'oidc')
	};
};

export const actions: Actions = {
	revoke: async ({ request, locals }) => {
		if (!(await locals.auth())?.user) return fail(401, { message: 'Sign in first.' });
		const id = (await request.formData()).get('id');
		if (typeof id !== 'string' || !(await sessions.revoke(id))) return fail(404, { message: 'No such session.' });
		return { message: 'Session ended.' };
	},
	revokeOthers: async ({ locals }) => {
		if (!(await locals.auth())?.user) return fail(401, { message: 'Sign in first.' });
		const count = await sessions.revokeOthers();
		return { message: `Signed out of ${count} other session${count === 1 ? '' : 's'}.` };
	}
};
