import { sha256 } from '../../crypto/index.js';
import * as o from 'oauth4webapi';
import type { AuthContext } from '../../context.js';
import { AuthError, OAuthCallbackError } from '../../errors.js';
import type { JWT, TokenSet } from '../../types/models.js';
import type { OAuthConfig } from '../../types/provider.js';
import { assertIssuedInPast, peekIdToken, unverifiedClaims } from './id-token.js';
import { verifyIdTokenSignature } from './id-token-signature.js';
import { serverForIdToken } from './issuer-template.js';
import { tokenSet } from './profile.js';
import { providerRefusal } from './provider-refusal.js';
import { authorizationServer, clientFor, httpOptions } from './server.js';

/** Refresh a little before the access token really expires: requests take time. */
const EARLY_SECONDS = 30;
/**
 * How long a finished refresh is remembered: a request that left the browser before the new cookie
 * arrived still carries the old (now rotated, spent) refresh token and must get the same result
 * instead of spending it again. Within one process; across instances the provider decides.
 */
const GRACE_MS = 60_000;
/**
 * After a failed refresh, how long before the same refresh token may be sent again: requests that
 * keep asking (every page load) must not hammer a provider that is down or refusing.
 */
const BACKOFF_MS = 30_000;

/** The error a session carries after a failed refresh (until the user signs in again). */
export const REFRESH_ERROR = 'RefreshTokenError';

/** The provider tokens a JWT session keeps when there is no adapter to keep them. */
export interface SessionTokens {
	provider: string;
	/** The ID token's subject at sign-in: a refresh must not hand us another user's tokens. */
	sub?: string;
	access_token?: string;
	refresh_token?: string;
	expires_at?: number;
}

export function isExpired(expiresAt: unknown): boolean {
	return typeof expiresAt === 'number' && expiresAt - EARLY_SECONDS <= Date.now() / 1000;
}

/**
 * How a refresh is shared with other instances (`shared-refresh.ts`): whether this one is to make
 * the exchange, and else the tokens the one that did stored.
 */
export interface SharedRefresh {
	claim(): Promise<boolean>;
	fromOther(): Promise<TokenSet>;
}

/**
 * Uses a refresh token once, however many requests ask at the same moment (they share one
 * exchange); with `shared`, once across instances too (the one holding the lease exchanges, the
 * others wait for what it stored). The new tokens keep the old refresh token when the provider
 * sends none. After a failure the same token is not sent again for `BACKOFF_MS` (within this
 * process): callers get an error without a request.
 */
export async function refreshTokens(
	ctx: AuthContext,
	provider: OAuthConfig,
	refreshToken: string,
	expectedSubject: string | undefined,
	shared?: SharedRefresh
): Promise<TokenSet> {
	const key = `${provider.id}\u0000${await sha256(refreshToken, 'hex')}`;
	const { refreshes: inFlight, refreshBackoff } = ctx.options.runtime;
	let pending = inFlight.get(key) as Promise<TokenSet> | undefined;
	if (pending) return pending;
	const retryAt = refreshBackoff.get(key);
	if (retryAt !== undefined && Date.now() < retryAt) {
		return Promise.reject(new OAuthCallbackError(`Refreshing the ${provider.id} access token failed moments ago; not retried yet`));
	}
	pending = shared
		? shared.claim().then((mine) => (mine ? exchange(ctx, provider, refreshToken, expectedSubject) : shared.fromOther()))
		: exchange(ctx, provider, refreshToken, expectedSubject);
	inFlight.set(key, pending);
	pending.then(
		() => setTimeout(() => inFlight.delete(key), GRACE_MS).unref?.(),
		() => {
			inFlight.delete(key);
			const until = Date.now() + BACKOFF_MS;
			refreshBackoff.set(key, until);
			// Forgotten once over, so the map does not grow.
			setTimeout(() => refreshBackoff.get(key) === until && refreshBackoff.delete(key), BACKOFF_MS).unref?.();
		}
	);
	return pending;
}

/** Did the provider refuse the refresh token itself (`invalid_grant`: revoked, expired, spent)? */
export function isDeadRefreshToken(error: unknown): boolean {
	// `exchange` wraps what oauth4webapi threw as an AuthError's `cause.err`.
	const cause = error instanceof AuthError ? error.cause?.err : undefined;
	return cause instanceof o.ResponseBodyError && cause.error === 'invalid_grant';
}

/** The `sub` of an ID token this server already validated (when it was issued to us). */
export function idTokenSubject(idToken: unknown): string | undefined {
	const sub = unverifiedClaims(idToken)?.sub;
	return typeof sub === 'string' ? sub : undefined;
}

async function exchange(ctx: AuthContext, provider: OAuthConfig, refreshToken: string, expectedSubject: string | undefined): Promise<TokenSet> {
	try {
		const server = await authorizationServer(ctx, provider);
		const { client, auth } = await clientFor(provider);
		const response = await o.refreshTokenGrantRequest(server, client, auth, refreshToken, httpOptions(provider, server.token_endpoint));
		const issuedBy = serverForIdToken(provider, server, await peekIdToken(response));
		const result = await o.processRefreshTokenResponse(issuedBy, client, response);
		if (result.id_token) {
			assertIssuedInPast(o.getValidatedIdTokenClaims(result), client);
			if (provider.type === 'oidc' || server.jwks_uri) {
				await verifyIdTokenSignature(provider, issuedBy, response, result.id_token, httpOptions(provider, server.jwks_uri));
			}
			// OIDC Core §12.2: a refreshed ID token must name the same user.
			const sub = o.getValidatedIdTokenClaims(result)?.sub;
			if (expectedSubject && sub !== expectedSubject) throw new Error('The refreshed ID token names another subject');
		}
		const tokens = tokenSet({ ...result });
		return { ...tokens, refresh_token: tokens.refresh_token ?? refreshToken };
	} catch (cause) {
		const refusal = providerRefusal(cause, [provider.clientSecret, refreshToken]);
		const said = refusal ? `: the provider answered ${refusal}` : '';
		throw new OAuthCallbackError(`Refreshing the ${provider.id} access token failed${said}`, { cause: cause as Error });
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
		const fresh = await refreshTokens(ctx, provider, stored.refresh_token, stored.sub);
		const oauth: SessionTokens = {
			provider: provider.id,
			sub: stored.sub,
			access_token: fresh.access_token,
			refresh_token: fresh.refresh_token,
			expires_at: fresh.expires_at
		};
		return { ...token, oauth };
	} catch (error) {
		ctx.options.logger.error(error as Error);
		return { ...token, error: REFRESH_ERROR };
	}
}

/** What a JWT session stores of a sign-in's tokens (only when no adapter stores them). */
export function sessionTokens(account: { provider: string; type: string } & TokenSet): SessionTokens | undefined {
	if ((account.type !== 'oauth' && account.type !== 'oidc') || !account.access_token) return undefined;
	return {
		provider: account.provider,
		sub: idTokenSubject(account.id_token),
		access_token: account.access_token,
		refresh_token: account.refresh_token,
		expires_at: account.expires_at
	};
}

export { oauthProvider };
