import { fail, redirect } from '@sveltejs/kit';
import { listProviders, ReauthenticationRequired } from '#lib';
import { accounts, authConfig, passkeys, reauthenticateAge, sessions } from '../../../demo/auth.js';
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
		passkeys: await passkeys.list(),
		// Providers a signed-in user can link: signing in with one while signed in links it.
		linkable: listProviders(authConfig).filter((p) => p.type === 'oauth' || p.type === 'oidc'),
		// Re-authenticating (sudo mode) works with a passkey or any linked provider.
		reauthenticateWith: listProviders(authConfig).filter((p) => p.type === 'oauth' || p.type === 'oidc')
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
		try {
			const count = await sessions.revokeOthers({ maxAge: reauthenticateAge });
			return { message: `Signed out of ${count} other session${count === 1 ? '' : 's'}.` };
		} catch (error) {
			if (!(error instanceof ReauthenticationRequired)) throw error;
			return fail(403, { message: 'Confirm it is you to sign out everywhere else.', reauthenticate: true });
		}
	},
	...passkeys.actions({ maxAge: reauthenticateAge })
};
