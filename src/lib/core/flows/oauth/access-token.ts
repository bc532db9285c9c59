import type { AuthContext } from '../../context.js';
import type { SessionRead } from '../../session/types.js';
import type { AdapterAccount } from '../../types/models.js';
import { idTokenSubject, isExpired, oauthProvider, REFRESH_ERROR, refreshTokens, type SessionTokens } from './refresh.js';

/**
 * The signed-in user's access token for a provider, refreshed when it has expired; `null` when
 * there is none or the refresh failed (then the session carries `error: 'RefreshTokenError'`).
 * For server code only: provider tokens never go to the browser.
 */
export async function accessToken(ctx: AuthContext, read: SessionRead, providerId: string): Promise<string | null> {
	if (!read.session) return null;
	const fromToken = read.token?.oauth as SessionTokens | undefined;
	if (fromToken?.provider === providerId) {
		// JWT sessions: the read already refreshed what was due.
		return read.token?.error || isExpired(fromToken.expires_at) ? null : (fromToken.access_token ?? null);
	}
	const adapter = ctx.options.adapter;
	const userId = read.user?.id ?? read.token?.sub;
	const provider = oauthProvider(ctx, providerId);
	if (!adapter?.listAccountsByUserId || !userId || !provider) return null;
	const account = (await adapter.listAccountsByUserId(userId)).find((a) => a.provider === providerId);
	if (!account?.access_token) return null;
	if (!isExpired(account.expires_at)) return account.access_token;
	if (!account.refresh_token) return null;
	try {
		const fresh = await refreshTokens(ctx, provider, account.refresh_token, idTokenSubject(account.id_token));
		const updated: AdapterAccount = {
			...account,
			access_token: fresh.access_token,
			refresh_token: fresh.refresh_token,
			expires_at: fresh.expires_at,
			...(fresh.id_token ? { id_token: fresh.id_token } : {})
		};
		await storeAccount(ctx, updated);
		return updated.access_token ?? null;
	} catch (error) {
		ctx.options.logger.error(error as Error);
		read.session.error = REFRESH_ERROR;
		return null;
	}
}

async function storeAccount(ctx: AuthContext, account: AdapterAccount): Promise<void> {
	const adapter = ctx.options.adapter!;
	if (adapter.updateAccount) {
		await adapter.updateAccount(account);
		return;
	}
	await adapter.unlinkAccount?.({ provider: account.provider, providerAccountId: account.providerAccountId });
	await adapter.linkAccount?.(account);
}
