import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { CurrentSession, LinkedAccount, SignInMethodsHint, UnlinkResult } from '../core/index.js';
import { applyCookies } from './cookies.js';

export type { LinkedAccount, SignInMethodsHint, UnlinkResult } from '../core/index.js';

export interface AccountsApi {
	/**
	 * The providers linked to the signed-in user (no tokens), each with `unlinkable`; `[]` when
	 * signed out. `otherSignIn: true` when the user can also sign in a way kitauth cannot see (a
	 * password).
	 */
	list(hint?: SignInMethodsHint): Promise<LinkedAccount[]>;
	/**
	 * Unlinks one of the signed-in user's accounts unless it is the last way to sign in
	 * (`{ ok: false, reason: 'last-sign-in-method' }`). Needs an adapter.
	 */
	unlink(provider: string, options?: SignInMethodsHint & { providerAccountId?: string }): Promise<UnlinkResult>;
}

export function createAccounts(current: (event: RequestEvent) => Promise<CurrentSession>): AccountsApi {
	const scope = () => current(getRequestEvent());
	return {
		list: async (hint) => (await scope()).linkedAccounts(hint),
		unlink: async (provider, options) => {
			const event = getRequestEvent();
			const result = await (await current(event)).unlinkAccount(provider, options);
			if (result.ok) applyCookies(event.cookies, result.sessionsEnded?.cookies);
			return result;
		}
	};
}

export interface GetAccessToken {
	/**
	 * `getAccessToken('github')`: the signed-in user's access token for a provider in the current
	 * request (a `load`, an action, an endpoint), refreshed when expired; `null` when there is none or
	 * the refresh failed (the session then carries `error: 'RefreshTokenError'`). Server code only.
	 */
	(providerId: string): Promise<string | null>;
	/** @deprecated Pass the provider id alone: the request is the current one, as for the other helpers. */
	(event: RequestEvent, providerId: string): Promise<string | null>;
}

export function createGetAccessToken(current: (event: RequestEvent) => Promise<CurrentSession>): GetAccessToken {
	return async (eventOrProvider: RequestEvent | string, providerId?: string) => {
		if (typeof eventOrProvider === 'string') return (await current(getRequestEvent())).accessToken(eventOrProvider);
		return (await current(eventOrProvider)).accessToken(providerId ?? '');
	};
}
