import type { Handle } from './types.js';
import { createSignIn, createSignOut, type SignInFunction, type SignOutFunction } from './actions.js';
import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import { type AccountsApi, createAccounts, createGetAccessToken, type GetAccessToken } from './accounts.js';
import { createCurrentSession } from './current.js';
import { createHandle } from './handle.js';
import { createPasskeys, type SvelteKitPasskeys } from './passkeys.js';
import { createPasswords, type SvelteKitPasswords } from './passwords.js';
import { createServerGetter } from './options.js';
import { createSessionManager, type SessionManager } from './sessions.js';
import { createTwoFactor, type SvelteKitTwoFactor } from './two-factor.js';
import type { SvelteKitAuthConfigInput } from './types.js';

export interface SvelteKitAuthResult {
	/** Use in `src/hooks.server.ts`: `export const handle = sequence(handle, …)`. */
	handle: Handle;
	/** A form action (`actions = { signIn }`) and a server function (`signIn('github')`). */
	signIn: SignInFunction;
	/** A form action (`actions = { signOut }`) and a server function (`signOut()`). */
	signOut: SignOutFunction;
	/**
	 * The signed-in user's sessions: list, revoke one, revoke all others (database sessions); and
	 * "sudo mode": when they last signed in, and guards for sensitive actions.
	 */
	sessions: SessionManager;
	/** The signed-in user's passkeys: list, rename, remove (WebAuthn providers), and form actions. */
	passkeys: SvelteKitPasskeys;
	/**
	 * Two-factor authentication (`twoFactor`): the signed-in user's status, set-up, backup codes,
	 * and the form actions for the two-factor components, the sign-in's second step among them.
	 */
	twoFactor: SvelteKitTwoFactor;
	/** Password accounts (`Password()`): form actions for sign-up, "forgot your password?" and the reset link's new password. */
	passwords: SvelteKitPasswords;
	/** The signed-in user's linked accounts (with an adapter). */
	accounts: AccountsApi;
	/** The signed-in user's access token for a provider, refreshed when expired (server only). */
	getAccessToken: GetAccessToken;
	/**
	 * The request's locale (the `i18n.locale` option, else `Accept-Language` among the locales
	 * there are messages for), e.g. for the components' `locale` (server only; the current
	 * request's event by default).
	 */
	locale: (event?: RequestEvent) => Promise<string>;
}

/**
 * kitauth for SvelteKit: serves `/auth/*`, sets `locals.auth()`, and gives sign-in and sign-out
 * as form actions and server functions. The config may be a function of the request event.
 */
export function SvelteKitAuth(config: SvelteKitAuthConfigInput): SvelteKitAuthResult {
	const getServer = createServerGetter(config);
	const current = createCurrentSession(getServer);
	return {
		handle: createHandle(getServer, current),
		signIn: createSignIn(getServer),
		signOut: createSignOut(getServer),
		sessions: createSessionManager(current, getServer),
		passkeys: createPasskeys(current, getServer),
		twoFactor: createTwoFactor(current, getServer),
		passwords: createPasswords(getServer),
		accounts: createAccounts(current),
		getAccessToken: createGetAccessToken(current),
		locale: async (event = getRequestEvent()) => (await getServer(event)).i18n(event.request).locale
	};
}
