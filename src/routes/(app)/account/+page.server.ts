import { fail, isActionFailure, redirect, type ActionFailure } from '@sveltejs/kit';
import { listProviders, ReauthenticationRequired, type PasswordAccountActionData } from '#lib';
import { accounts, adapter, authConfig, passkeys, passwords, reauthenticateAge, sessions } from '../../../demo/auth.js';
import { demoStrategy } from '../../../demo/database.js';
import type { Actions, PageServerLoad } from './$types';

/**
 * Whether the user has a stored password (a `Password()` account). JWT sessions carry no user id
 * by default: there the address decides (it only chooses which forms show; the actions act on the
 * session's user).
 */
async function hasPassword(user: { id?: string; email?: string | null }): Promise<boolean> {
	const found = user.email ? await adapter.getPasswordUser?.(user.email) : null;
	return !!found && (user.id === undefined || found.user.id === user.id);
}

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
		// A password account (its password stored) gets the forms that change or delete it.
		password: (await hasPassword(session.user)) ? { recentSignIn: reauthenticateAge } : null,
		// Re-authenticating (sudo mode) works with a passkey or any linked provider.
		reauthenticateWith: providers.filter((p) => p.type === 'oauth' || p.type === 'oidc')
	};
};

const password = passwords.actions();

/** A password action's answer, marked with the form it is for (the page has several). */
function forForm<D extends object>(name: string, answer: ActionFailure<PasswordAccountActionData> | D) {
	// (`isActionFailure` narrows to `ActionFailure<undefined>`, so the refusal's type is restated.)
	const refused = isActionFailure(answer) ? (answer as ActionFailure<PasswordAccountActionData>) : null;
	return refused ? fail(refused.status, { ...refused.data, for: name }) : { ...(answer as D), for: name };
}

export const actions: Actions = {
	changePassword: async (event) => forForm('password', await password.changePassword(event)),
	changeEmail: async (event) => forForm('email', await password.changeEmail(event)),
	deleteAccount: async (event) => {
		const answer = forForm('delete', await password.deleteAccount(event));
		// Signed out (the action cleared the session's cookie): to the home page, which says so.
		if ('deleted' in answer) redirect(303, '/?deleted');
		return answer;
	},
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
