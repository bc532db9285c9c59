/**
 * An OAuth access-token refresh once across instances, for accounts stored by an adapter that
 * can take a lease (`Adapter.acquireLease`: one conditional statement on the shared store). The
 * instance that gets the lease makes the token request and stores the new tokens; the others
 * (whose own in-process single flight already merged their callers) read the account row until
 * it changes. A rotating provider would refuse the second use of a refresh token anyway: without
 * this, each instance would spend a request on it, and all but one would fail.
 */
import { sha256 } from '../../crypto/index.js';
import { OAuthCallbackError } from '../../errors.js';
import type { Adapter } from '../../types/adapter.js';
import type { AdapterAccount, TokenSet } from '../../types/models.js';
import { isExpired, type SharedRefresh } from './refresh.js';

/** How long the lease holds: as long as a failed refresh is not retried (`BACKOFF_MS`). */
const LEASE_MS = 30_000;
/** How long the others wait for the holder's tokens before they give up (a failed refresh). */
const WAIT_MS = 10_000;
const POLL_MS = 50;

/** The account as stored now: the user's account at this provider. */
export async function storedAccount(adapter: Adapter, userId: string, providerId: string): Promise<AdapterAccount | undefined> {
	return (await adapter.listAccountsByUserId?.(userId))?.find((a) => a.provider === providerId);
}

export function sharedRefresh(adapter: Adapter, account: AdapterAccount): SharedRefresh | undefined {
	const acquire = adapter.acquireLease;
	if (typeof acquire !== 'function' || !account.refresh_token) return undefined;
	return {
		async claim() {
			// Keyed by the refresh token itself (hashed: no secret in the store's keys).
			const key = `oauth-refresh:${await sha256(`${account.provider}\u0000${account.providerAccountId}\u0000${account.refresh_token}`, 'hex')}`;
			return await acquire.call(adapter, key, LEASE_MS, Date.now());
		},
		async fromOther(): Promise<TokenSet> {
			// A monotonic clock: the wait is real time, whatever the wall clock does.
			const deadline = performance.now() + WAIT_MS;
			for (;;) {
				const current = await storedAccount(adapter, account.userId, account.provider);
				const changed = !current || current.refresh_token !== account.refresh_token || current.access_token !== account.access_token;
				if (changed) {
					if (current?.access_token && !isExpired(current.expires_at)) return tokensOf(current);
					throw new OAuthCallbackError(`Refreshing the ${account.provider} access token failed on another instance`);
				}
				if (performance.now() >= deadline) {
					throw new OAuthCallbackError(`The ${account.provider} access token was not refreshed by the instance refreshing it within ${WAIT_MS} ms`);
				}
				await new Promise((resolve) => setTimeout(resolve, POLL_MS));
			}
		}
	};
}

function tokensOf(account: AdapterAccount): TokenSet {
	const { access_token, refresh_token, expires_at, id_token, token_type, scope } = account;
	return { access_token, refresh_token, expires_at, id_token, token_type, scope };
}
