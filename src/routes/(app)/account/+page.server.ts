import { fail, redirect } from '@sveltejs/kit';
import { listProviders, ReauthenticationRequired } from '#lib';
import { accounts, authConfig, passkeys, reauthenticateAge, sessions } from '../../../demo/auth.js';
import { demoStrategy } from '../../../demo/database.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const session = await locals.auth();
	if (!session?.user) redirect(303, `/signin?redirectTo=${encodeURIComponent(url.pathname)}`);
	const cursor = url.searchParams.get('sessions');
	const providers = listProviders(authConfig);
	return {
		user: session.user,
		expires: session.expires,
		// One page of sessions at a time (`?sessions=<cursor>`), however many there are.
		sessions: demoStrategy() === 'database' ? await sessions.page({ limit: 10, cursor }) : null,
		cursor,
		accounts: await accounts.list(),
		providers,
		passkeys: await passkeys.list(),
		// Re-authenticating (sudo mode) works with a passkey or any linked provider.
		reauthenticateWith: providers.filter((p) => p.type === 'oauth' || p.type === 'oidc')
	};
};

export const actions: Actions = {
	revokeSession: async ({ request, locals }) => {
		if (!(await locals.auth())?.user) return fail(401, { for: 'sessions', formErrors: ['Sign in first.'] });
		const id = (await request.formData()).get('id');
		if (typeof id !== 'string' || !(await sessions.revoke(id))) return fail(404, { for: 'sessions', formErrors: ['That session has already ended.'] });
		return { for: 'sessions', message: 'Session ended.' };
	},
	revokeOtherSessions: async ({ locals }) => {
		if (!(await locals.auth())?.user) return fail(401, { for: 'sessions', formErrors: ['Sign in first.'] });
		try {
			const count = await sessions.revokeOthers({ maxAge: reauthenticateAge });
			return { for: 'sessions', message: `Signed out of ${count} other session${count === 1 ? '' : 's'}.` };
		} catch (error) {
			if (!(error instanceof ReauthenticationRequired)) throw error;
			return fail(403, { for: 'sessions', formErrors: ['Confirm it is you to sign out everywhere else.'], reauthenticate: true });
		}
	},
	unlinkAccount: async ({ request, locals }) => {
		const user = (await locals.auth())?.user;
		if (!user) return fail(401, { for: 'accounts', formErrors: ['Sign in first.'] });
		const form = await request.formData();
		const provider = form.get('provider');
		const providerAccountId = form.get('providerAccountId');
		if (typeof provider !== 'string' || typeof providerAccountId !== 'string') {
			return fail(400, { for: 'accounts', formErrors: ['Choose an account to unlink.'] });
		}
		const result = await accounts.unlink(provider, { providerAccountId });
		if (!result.ok) {
			const why = result.reason === 'last-sign-in-method' ? 'It is your only way to sign in: link another first.' : 'That account is not linked.';
			return fail(409, { for: 'accounts', formErrors: [why] });
		}
		return { for: 'accounts', message: 'Account unlinked.' };
	},
	...passkeys.actions({ maxAge: reauthenticateAge })
};
