import * as o from 'oauth4webapi';
import type { AuthContext } from '../../context.js';
import { InvalidEndpoints, OAuthSignInError } from '../../errors.js';
import type { EndpointSetting, OAuthConfig } from '../../types/provider.js';
import { expectedIssuer } from './issuer-template.js';

const DEFAULT_TIMEOUT = 10_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The URL of an endpoint setting (`'https://…'` or `{ url }`). */
export function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}

/** Extra query parameters of an endpoint setting. */
export function endpointParams(setting: EndpointSetting | undefined): Record<string, unknown> {
	return typeof setting === 'object' && setting?.params ? setting.params : {};
}

/** What every oauth4webapi request function accepts, whatever its method and body. */
export interface HttpOptions {
	signal: () => AbortSignal;
	[o.customFetch]?: (url: string, init: o.CustomFetchOptions<string, o.ProtectedResourceRequestBody>) => Promise<Response>;
	[o.allowInsecureRequests]?: boolean;
}

/**
 * Options for every oauth4webapi call to this provider: the provider's own `fetch`, a timeout so a
 * slow or silent provider fails within bounded time, and plain http only to loopback hosts (a local
 * test or demo IdP) — never to the network.
 */
export function httpOptions(provider: OAuthConfig, url: string | undefined): HttpOptions {
	const timeout = provider.timeout ?? DEFAULT_TIMEOUT;
	const options: HttpOptions = { signal: () => AbortSignal.timeout(timeout) };
	const custom = provider.fetch;
	// oauth4webapi only ever hands fetch bodies that fetch accepts; the union merely spells them out.
	if (custom) options[o.customFetch] = (input, init) => custom(input, init as RequestInit);
	if (url && isLoopbackHttp(url)) options[o.allowInsecureRequests] = true;
	return options;
}

function isLoopbackHttp(url: string): boolean {
	try {
		const parsed = new URL(url);
		return parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname);
	} catch {
		return false;
	}
}

/** The fetch a `userinfo.request` hook gets: the provider's own, with the same timeout. */
export function providerFetch(provider: OAuthConfig): typeof globalThis.fetch {
	const timeout = provider.timeout ?? DEFAULT_TIMEOUT;
	const base = provider.fetch ?? globalThis.fetch;
	return (input, init) => base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeout) });
}

/**
 * Is the provider's metadata discovered (from its issuer or `wellKnown`)? Not for plain OAuth 2 with
 * both explicit endpoints (GitHub has no discovery, yet names an issuer for the RFC 9207 `iss`
 * check); OIDC with an issuer still discovers, for its JWKS.
 */
export function discovers(provider: OAuthConfig): boolean {
	const explicit = !!endpointUrl(provider.authorization) && !!endpointUrl(provider.token) && !provider.wellKnown;
	return !(explicit && (provider.type === 'oauth' || !provider.issuer));
}

/**
 * The provider's authorization server: from its explicit endpoints, or discovered from its issuer
 * (once per configuration; a failed discovery is not cached, so a later request tries again).
 * Throws `OAuthSignInError` when the provider cannot be reached or answers nonsense.
 */
export async function authorizationServer(ctx: AuthContext, provider: OAuthConfig): Promise<o.AuthorizationServer> {
	const authorization = endpointUrl(provider.authorization);
	const token = endpointUrl(provider.token);
	if (!discovers(provider) && authorization && token) {
		return {
			issuer: provider.issuer ?? new URL(authorization).origin,
			authorization_endpoint: authorization,
			token_endpoint: token,
			userinfo_endpoint: endpointUrl(provider.userinfo)
		};
	}
	// Per provider and where it is discovered: the runtime outlives config objects (lazy configs),
	// and one of those may point the same provider id somewhere else.
	const cache = ctx.options.runtime.discovery;
	const key = `${provider.id}\u0000${discoveryLocation(provider).from}`;
	let pending = cache.get(key) as Promise<o.AuthorizationServer> | undefined;
	if (!pending) {
		pending = discover(provider).catch((error: unknown) => {
			cache.delete(key);
			throw error;
		});
		cache.set(key, pending);
	}
	const discovered = await pending;
	// Explicit endpoints still win over discovered ones.
	return {
		...discovered,
		authorization_endpoint: authorization ?? discovered.authorization_endpoint,
		token_endpoint: token ?? discovered.token_endpoint,
		userinfo_endpoint: endpointUrl(provider.userinfo) ?? discovered.userinfo_endpoint
	};
}

async function discover(provider: OAuthConfig): Promise<o.AuthorizationServer> {
	const { from, algorithm } = discoveryLocation(provider);
	try {
		// oauth4webapi's request: https only (plain http to loopback only), no redirects followed,
		// the provider's own fetch and timeout.
		const response = await o.discoveryRequest(new URL(from), { ...httpOptions(provider, from), algorithm });
		return await o.processDiscoveryResponse(await expectedIssuer(provider, provider.issuer ?? from, response), response);
	} catch (error) {
		throw new OAuthSignInError(`Discovery for provider "${provider.id}" failed`, { cause: error as Error });
	}
}

const OIDC_WELL_KNOWN = '/.well-known/openid-configuration';
const OAUTH_WELL_KNOWN = '/.well-known/oauth-authorization-server';

/**
 * Where discovery looks: the issuer, or without one, the issuer a `wellKnown` URL is the metadata
 * of. Both standard locations are understood (OpenID Connect appends its suffix to the issuer,
 * RFC 8414 inserts its prefix); other URLs are refused rather than fetched without oauth4webapi's
 * checks. An issuer wins as in Auth.js v5, which discovers from it and never reads `wellKnown`:
 * some of its presets (Asgardeo, OneLogin, Frontegg) name a `wellKnown` elsewhere that it ignores.
 */
function discoveryLocation(provider: OAuthConfig): { from: string; algorithm: 'oidc' | 'oauth2' } {
	const algorithm = provider.type === 'oidc' ? 'oidc' : 'oauth2';
	if (provider.issuer) return { from: provider.issuer, algorithm };
	if (!provider.wellKnown) throw new InvalidEndpoints(`Provider "${provider.id}" has no issuer to discover`);
	let url: URL;
	try {
		url = new URL(provider.wellKnown);
	} catch {
		throw new InvalidEndpoints(`The wellKnown URL of provider "${provider.id}" is not a URL`);
	}
	const path = url.pathname;
	if (!url.search && path.endsWith(OIDC_WELL_KNOWN)) {
		return { from: url.origin + path.slice(0, -OIDC_WELL_KNOWN.length), algorithm: 'oidc' };
	}
	if (!url.search && (path === OAUTH_WELL_KNOWN || path.startsWith(`${OAUTH_WELL_KNOWN}/`))) {
		return { from: url.origin + path.slice(OAUTH_WELL_KNOWN.length), algorithm: 'oauth2' };
	}
	throw new InvalidEndpoints(
		`The wellKnown URL of provider "${provider.id}" must end with ${OIDC_WELL_KNOWN} or start with ${OAUTH_WELL_KNOWN}`
	);
}

/** Client metadata and client authentication (basic by default; `none` for public clients). */
export async function clientFor(provider: OAuthConfig): Promise<{ client: o.Client; auth: o.ClientAuth; isPublic: boolean }> {
	const { token_endpoint_auth_method: method, ...metadata } = provider.client ?? {};
	const client: o.Client = { ...metadata, client_id: provider.clientId ?? '' };
	// Without a method a client has its secret: the flow refuses a provider that has neither.
	const chosen = method ?? 'client_secret_basic';
	switch (chosen) {
		case 'client_secret_post':
			return { client, auth: o.ClientSecretPost(provider.clientSecret ?? ''), isPublic: false };
		case 'private_key_jwt':
			return { client, auth: o.PrivateKeyJwt(await privateKey(provider)), isPublic: false };
		case 'none':
			return { client, auth: o.None(), isPublic: true };
		default:
			return { client, auth: o.ClientSecretBasic(provider.clientSecret ?? ''), isPublic: false };
	}
}

const JWK_ALGORITHMS: Record<string, RsaHashedImportParams | EcKeyImportParams | Algorithm> = {
	RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
	PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
	ES256: { name: 'ECDSA', namedCurve: 'P-256' },
	EdDSA: { name: 'Ed25519' }
};

async function privateKey(provider: OAuthConfig): Promise<o.CryptoKey | o.PrivateKey> {
	const key = provider.token && typeof provider.token === 'object' ? provider.token.clientPrivateKey : undefined;
	if (!key) throw new InvalidEndpoints(`Provider "${provider.id}" uses private_key_jwt but has no token.clientPrivateKey`);
	if (typeof CryptoKey !== 'undefined' && key instanceof CryptoKey) return key;
	const jwk = key as JsonWebKey & { kid?: string };
	const algorithm = JWK_ALGORITHMS[jwk.alg ?? 'RS256'];
	if (!algorithm) throw new InvalidEndpoints(`Unsupported private_key_jwt algorithm ${jwk.alg}`);
	const imported = await crypto.subtle.importKey('jwk', jwk, algorithm, false, ['sign']);
	return { key: imported, kid: jwk.kid };
}
