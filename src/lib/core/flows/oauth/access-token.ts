import type { AuthContext } from '../../context.js';
import type { SessionRead } from '../../session/types.js';
import type { Adapter } from '../../types/adapter.js';
import type { AdapterAccount, Session } from '../../types/models.js';
import {
	idTokenSubject,
	isDeadRefreshToken,
	isExpired,
	oauthProvider,
	REFRESH_ERROR,
	refreshTokens,
	type SessionTokens
} from './refresh.js';
import { sharedRefresh, storedAccount } from './shared-refresh.js';

/**
 * The signed-in user's access token for a provider, refreshed when it has expired; `null` when
 * there is none or it cannot be renewed (then the session carries `error: 'RefreshTokenError'`).
 * For server code only: provider tokens never go to the browser.
 */
export async function accessToken(ctx: AuthContext, read: SessionRead, providerId: string): Promise<string | null> {
	const session = read.session;
	if (!session) return null;
	const fromToken = read.token?.oauth as SessionTokens | undefined;
	if (fromToken?.provider === providerId) {
		// JWT sessions: the read already refreshed what was due.
		return read.token?.error || isExpired(fromToken.expires_at) ? null : (fromToken.access_token ?? null);
	}
	const adapter = ctx.options.adapter;
	const userId = read.user?.id ?? read.token?.sub;
	const provider = oauthProvider(ctx, providerId);
	if (!adapter?.listAccountsByUserId || !userId || !provider) return null;
	const account = await storedAccount(adapter, userId, providerId);
	if (!account?.access_token) return null;
	if (!isExpired(account.expires_at)) return account.access_token;
	// Expired, and nothing to renew it with (never had one, or the provider refused it): only a new
	// sign-in helps.
	if (!account.refresh_token) return failed(session);
	try {
		const fresh = await refreshTokens(ctx, provider, account.refresh_token, idTokenSubject(account.id_token), sharedRefresh(adapter, account));
		const updated: AdapterAccount = {
			...account,
			access_token: fresh.access_token,
			refresh_token: fresh.refresh_token,
			expires_at: fresh.expires_at,
			...(fresh.id_token ? { id_token: fresh.id_token } : {})
		};
		await storeAccount(adapter, updated);
		return updated.access_token ?? null;
	} catch (error) {
		ctx.options.logger.error(error as Error);
		// Other failures (network, 5xx, invalid_client) keep the refresh token for a later try.
		if (isDeadRefreshToken(error)) return forgetRefreshToken(ctx, adapter, session, account);
		return failed(session);
	}
}

function failed(session: Session): null {
	session.error = REFRESH_ERROR;
	return null;
}

/**
 * The provider refused the refresh token (`invalid_grant`): it is dead, so it is removed from the
 * stored account and no request, on any instance, sends it again. Unless another instance
 * refreshed in the meantime (its rotation is why ours was refused): then the row is left alone and
 * its fresh access token is the answer.
 */
async function forgetRefreshToken(
	ctx: AuthContext,
	adapter: Adapter,
	session: Session,
	refused: AdapterAccount
): Promise<string | null> {
	try {
		const current = await storedAccount(adapter, refused.userId, refused.provider);
		if (current && current.refresh_token !== refused.refresh_token) {
			return current.access_token && !isExpired(current.expires_at) ? current.access_token : failed(session);
		}
		if (current) await storeAccount(adapter, { ...current, refresh_token: undefined });
	} catch (error) {
		ctx.options.logger.error(error as Error);
	}
	return failed(session);
}

async function storeAccount(adapter: Adapter, account: AdapterAccount): Promise<void> {
	if (adapter.updateAccount) {
		// The account's whole token state is written: a refresh token it no longer has is cleared.
		await adapter.updateAccount({ ...account, refresh_token: account.refresh_token ?? null });
		return;
	}
	await adapter.unlinkAccount?.({ provider: account.provider, providerAccountId: account.providerAccountId });
	await adapter.linkAccount?.(account);
}
