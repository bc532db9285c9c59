import { base64url, randomBytes } from '../../crypto/index.js';
import type { AuthContext } from '../../context.js';
import { openToken, sealToken } from '../../session/jwt.js';
import type { OAuthConfig } from '../../types/provider.js';

/** Salt of the `state` parameter when it carries the origin for a redirect proxy. */
const STATE_SALT = 'kitauth.oauth-state';

export function proxyUrl(ctx: AuthContext, provider: OAuthConfig): string | undefined {
	const url = provider.redirectProxyUrl ?? ctx.options.redirectProxyUrl;
	return url ? url.replace(/\/+$/, '') : undefined;
}

/** The `redirect_uri` registered with the provider: this site's callback, or the proxy's. */
export function redirectUri(ctx: AuthContext, provider: OAuthConfig): string {
	return `${proxyUrl(ctx, provider) ?? ctx.baseUrl}/callback/${provider.id}`;
}

/**
 * The `state` parameter. Behind a redirect proxy it is sealed and names the deployment that started
 * the flow, so the stable deployment can send the callback back there (both share the secret).
 */
export async function newState(ctx: AuthContext, proxied: boolean): Promise<string> {
	const random = base64url(randomBytes(32));
	return proxied ? sealToken(ctx.options.keyring, STATE_SALT, { origin: ctx.origin, random }, 15 * 60) : random;
}

/**
 * On the proxy deployment: where to forward a callback that another deployment started, if any.
 * Only a sealed state (our secret) can name the target, and only an http(s) origin.
 */
export async function forwardTarget(ctx: AuthContext, provider: OAuthConfig, params: URLSearchParams): Promise<string | undefined> {
	const proxy = proxyUrl(ctx, provider);
	const state = params.get('state');
	if (!proxy || !state || new URL(proxy).origin !== ctx.origin) return undefined;
	const claims = await openToken(ctx.options.keyring, STATE_SALT, state);
	const origin = typeof claims?.origin === 'string' ? claims.origin : undefined;
	if (!origin || origin === ctx.origin || !/^https?:\/\/[^/]+$/.test(origin)) return undefined;
	return `${origin}${ctx.options.basePath}/callback/${provider.id}?${params}`;
}
