import { createHash } from 'node:crypto';
import * as o from 'oauth4webapi';
import type { AuthContext } from '../../context.js';
import { OAuthCallbackError } from '../../errors.js';
import type { JWT, TokenSet } from '../../types/models.js';
import type { OAuthConfig } from '../../types/provider.js';
import { tokenSet } from './profile.js';
import { authorizationServer, clientFor, httpOptions } from './server.js';

/** Refresh a little before the access token really expires: requests take time. */
const EARLY_SECONDS = 30;

/** The error a session carries after a failed refresh (until the user signs in again). */
export const REFRESH_ERROR = 'RefreshTokenError';

/** The provider tokens a JWT session keeps when there is no adapter to keep them. */
export interface SessionTokens {
	provider: string;
	access_token?: string;
	refresh_token?: string;
	expires_at?: number;
}

export function isExpired(expiresAt: unknown): boolean {
	return typeof expiresAt === 'number' && expiresAt - EARLY_SECONDS <= Date.now() / 1000;
}

/**
 * Uses a refresh token once, however many requests ask at the same moment (they share one
 * exchange). The new tokens keep the old refresh token when the provider sends none.
 */
export function refreshTokens(ctx: AuthContext, provider: OAuthConfig, refreshToken: string): Promise<TokenSet> {
	const key = `${provider.id}\u0000${createHash('sha256').update(refreshToken).digest('hex')}`;
	const inFlight = ctx.options.runtime.refreshes;
	let pending = inFlight.get(key) as Promise<TokenSet> | undefined;
	if (!pending) {
		pending = exchange(ctx, provider, refreshToken).finally(() => inFlight.delete(key));
		inFlight.set(key, pending);
	}
	return pending;
}

async function exchange(ctx: AuthContext, provider: OAuthConfig, refreshToken: string): Promise<TokenSet> {
	try {
		const server = await authorizationServer(ctx, provider);
		const { client, auth } = await clientFor(provider);
		const response = await o.refreshTokenGrantRequest(server, client, auth, refreshToken, httpOptions(provider, server.token_endpoint));
		const result = await o.processRefreshTokenResponse(server, client, response);
		if (result.id_token) await o.validateApplicationLevelSignature(server, response, httpOptions(provider, server.jwks_uri));
		const tokens = tokenSet({ ...result });
		return { ...tokens, refresh_token: tokens.refresh_token ?? refreshToken };
	} catch (cause) {
		throw new OAuthCallbackError(`Refreshing the ${provider.id} access token failed`, { cause: cause as Error });
	}
}

function oauthProvider(ctx: AuthContext, id: string): OAuthConfig | undefined {
	const provider = ctx.options.providers.find((p) => p.id === id);
	return provider && (provider.type === 'oauth' || provider.type === 'oidc') ? provider : undefined;
}

/**
 * JWT sessions without an adapter keep the provider's tokens in the token (`oauth`). On a read,
 * an expired access token with a refresh token is refreshed; a failed refresh marks the token with
 * `error` and is not retried (no silent loop): the user signs in again.
 */
export async function refreshJwtTokens(ctx: AuthContext, token: JWT): Promise<JWT> {
	const stored = token.oauth as SessionTokens | undefined;
	if (!stored || token.error || !stored.refresh_token || !isExpired(stored.expires_at)) return token;
	const provider = oauthProvider(ctx, stored.provider);
	if (!provider) return token;
	try {
		const fresh = await refreshTokens(ctx, provider, stored.refresh_token);
		const oauth: SessionTokens = { provider: provider.id, access_token: fresh.access_token, refresh_token: fresh.refresh_token, expires_at: fresh.expires_at };
		return { ...token, oauth };
	} catch (error) {
		ctx.options.logger.error(error as Error);
		return { ...token, error: REFRESH_ERROR };
	}
}

/** What a JWT session stores of a sign-in's tokens (only when no adapter stores them). */
export function sessionTokens(account: { provider: string; type: string } & TokenSet): SessionTokens | undefined {
	if ((account.type !== 'oauth' && account.type !== 'oidc') || !account.access_token) return undefined;
	return { provider: account.provider, access_token: account.access_token, refresh_token: account.refresh_token, expires_at: account.expires_at };
}

export { oauthProvider };
