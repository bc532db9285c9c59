import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { CurrentSession, LinkedAccount } from '../core/index.js';

export type { LinkedAccount } from '../core/index.js';

export interface AccountsApi {
	/** The providers linked to the signed-in user (no tokens); `[]` when signed out. */
	list(): Promise<LinkedAccount[]>;
}

export function createAccounts(current: (event: RequestEvent) => Promise<CurrentSession>): AccountsApi {
	return { list: async () => (await current(getRequestEvent())).linkedAccounts() };
}

/**
 * `getAccessToken(event, 'github')`: the signed-in user's access token for a provider, refreshed
 * when expired; `null` when there is none or the refresh failed (the session then carries
 * `error: 'RefreshTokenError'`). Server code only.
 */
export function createGetAccessToken(
	current: (event: RequestEvent) => Promise<CurrentSession>
): (event: RequestEvent, providerId: string) => Promise<string | null> {
	return async (event, providerId) => (await current(event)).accessToken(providerId);
}
