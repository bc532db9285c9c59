import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import { accessToken } from '../core/flows/oauth/access-token.js';
import { type LinkedAccount, linkedAccounts } from '../core/session/accounts.js';
import type { CurrentSession } from './current.js';

export type { LinkedAccount } from '../core/session/accounts.js';

export interface AccountsApi {
	/** The providers linked to the signed-in user (no tokens); `[]` when signed out. */
	list(): Promise<LinkedAccount[]>;
}

export function createAccounts(current: (event: RequestEvent) => Promise<CurrentSession>): AccountsApi {
	return {
		list: async () => {
			const { ctx, read } = await current(getRequestEvent());
			return linkedAccounts(ctx, read);
		}
	};
}

/**
 * `getAccessToken(event, 'github')`: the signed-in user's access token for a provider, refreshed
 * when expired; `null` when there is none or the refresh failed (the session then carries
 * `error: 'RefreshTokenError'`). Server code only.
 */
export function createGetAccessToken(
	current: (event: RequestEvent) => Promise<CurrentSession>
): (event: RequestEvent, providerId: string) => Promise<string | null> {
	return async (event, providerId) => {
		const { ctx, read } = await current(event);
		return accessToken(ctx, read, providerId);
	};
}
