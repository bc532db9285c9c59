/**
 * A misbehaving OpenID Provider of our own, for what oidc-provider will not do on purpose: a small
 * `node:http` server on `http://127.0.0.1:<random port>` with discovery, JWKS, authorization,
 * token and userinfo endpoints, whose next token responses can carry a flawed ID token (or an
 * error), whose discovery document can lie about its `issuer`, whose authorization redirect can
 * alter or drop `state`/`iss`, and whose userinfo can serve another `sub`.
 *
 * Everything else is done like a real server, so that a test failing on a flaw fails for that flaw:
 * registered redirect URIs only, PKCE S256 required (challenge stored at /authorize, verifier
 * checked at /token), client authentication per the client's registered method (basic, post or
 * none), one-time codes (unless told to be broken: `reuseCodes`), Bearer-only userinfo, rotating
 * refresh tokens.
 *
 * There are no login pages: /authorize signs in `behaviour.login` (default `alice`), or the account
 * named by `login_hint`, and redirects straight back.
 *
 * With `tenant`, it behaves like a multi-tenant server (Entra ID's `common`): discovery, also at
 * `/<anything>/v2.0/.well-known/openid-configuration`, names the issuer template
 * `<origin>/{tenantid}/v2.0`; ID tokens carry `tid` and `iss = <origin>/<tid>/v2.0`; there is no
 * RFC 9207 `iss` response parameter.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, type JWK } from 'jose';
import type { OAuthConfig } from '../../src/lib/core/types.js';
import {
	DEFAULT_ACCOUNTS,
	startLoopback,
	type IdpEndpoint,
	type LoopbackServer,
	type TestAccount
} from './idp-shared.js';
import { GOOD_KID, idToken, makeSigningKeys, type IdTokenFlaw } from './rogue-id-token.js';

export { DEFAULT_ACCOUNTS, type TestAccount } from './idp-shared.js';
export {
	ID_TOKEN_FLAWS,
	OTHER_AUDIENCE,
	WRONG_ISSUER,
	WRONG_NONCE,
	WRONG_SUB,
	type IdTokenFlaw
} from './rogue-id-token.js';

export const ROGUE_CLIENT_ID = 'kitauth-rogue';
export const ROGUE_CLIENT_SECRET = 'kitauth-rogue-secret-0123456789abcdef';

/** The OIDC provider `rogue` on the rogue IdP's default client (discovery from `issuer`). */
export function rogueOidc(issuer: string, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return { id: 'rogue', name: 'Rogue', type: 'oidc', issuer, clientId: ROGUE_CLIENT_ID, clientSecret: ROGUE_CLIENT_SECRET, ...overrides };
}

/**
 * A plain OAuth 2 provider on the rogue IdP's default client: explicit endpoints, no discovery;
 * the issuer named for the OP's RFC 9207 `iss` response parameter.
 */
export function roguePlainOAuth(issuer: string, provider: Pick<OAuthConfig, 'id' | 'name' | 'checks'>): OAuthConfig {
	return {
		...provider,
		type: 'oauth',
		issuer,
		authorization: `${issuer}/authorize`,
		token: `${issuer}/token`,
		userinfo: `${issuer}/userinfo`,
		clientId: ROGUE_CLIENT_ID,
		clientSecret: ROGUE_CLIENT_SECRET
	};
}

export interface RogueClient {
	client_id: string;
	client_secret?: string;
	token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'none';
	redirect_uris: string[];
}

/**
 * One token response: `good`, an ID token with one flaw, `error` (HTTP 400 `invalid_grant`), or
 * `unavailable` (HTTP 503 `temporarily_unavailable`, answered before the code or refresh token is
 * looked at, so it stays usable).
 */
export type TokenResponseVariant = 'good' | IdTokenFlaw | 'error' | 'unavailable';

/** Mutable between requests; `reset()` restores the defaults. */
export interface RogueBehaviour {
	/** The `issuer` the discovery document claims. Default: the real one. */
	discoveryIssuer?: string;
	/** Authorization redirect `state`: `undefined` echoes the request's, `null` omits it, a string replaces it. */
	responseState?: string | null;
	/** Authorization redirect `iss`: `undefined` sends the issuer, `null` omits it, a string replaces it. */
	responseIss?: string | null;
	/** The `sub` userinfo serves. Default: the account's. */
	userinfoSub?: string;
	/** Who /authorize signs in when there is no (known) `login_hint`. */
	login: string;
	/** With `tenant`: the tenant the ID token's `iss` names. Default: its `tid`. */
	issuerTenant?: string;
	/** A broken OP that accepts an authorization code again and again (it should be spent at first use). */
	reuseCodes?: boolean;
	/** An OP that lets a client skip PKCE (a confidential client may, per OAuth 2.0). */
	pkceOptional?: boolean;
}

export interface RogueIdpOptions {
	/** `redirect_uris` of the default client `kitauth-rogue` (`client_secret_basic`). */
	redirectUris?: string[];
	/** More clients. */
	clients?: RogueClient[];
	/** Login name → account, merged over `alice` and `bob`. */
	accounts?: Record<string, TestAccount>;
	/** Behave like a multi-tenant server; this is the `tid` of every ID token (a GUID). */
	tenant?: string;
}

export interface RogueIdp extends Omit<LoopbackServer, 'origin'> {
	issuer: string;
	clientId: string;
	clientSecret: string;
	accounts: Readonly<Record<string, TestAccount>>;
	behaviour: RogueBehaviour;
	/** The published JWKS (one RS256 key). */
	jwks: { keys: JWK[] };
	/** Queue the answers to the next token requests, one variant each; once the queue is empty they are `good`. */
	nextTokenResponse(...variants: TokenResponseVariant[]): void;
	/** Register one more redirect URI for the default client (an app whose port is known late). */
	allowRedirectUri(uri: string): void;
	/** Restore the default behaviour and empty the queue. */
	reset(): void;
	/** GET the authorization URL and return the redirect back to the client (no pages to fill in). */
	completeInteraction(authorizationUrl: string | URL): Promise<URL>;
}

interface CodeGrant {
	clientId: string;
	redirectUri: string;
	codeChallenge: string;
	nonce?: string;
	scope: string;
	login: string;
}

interface TokenGrant {
	clientId: string;
	login: string;
	scope: string;
}

function classifier(tenant: string | undefined): (pathname: string) => IdpEndpoint {
	const map: Record<string, IdpEndpoint> = {
		'/.well-known/openid-configuration': 'discovery',
		'/jwks': 'jwks',
		'/authorize': 'authorization',
		'/token': 'token',
		'/userinfo': 'userinfo'
	};
	const tenantDiscovery = /^\/[\w.-]+\/v2\.0\/\.well-known\/openid-configuration$/;
	return (pathname) => map[pathname] ?? (tenant && tenantDiscovery.test(pathname) ? 'discovery' : 'other');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
	res.end(JSON.stringify(body));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const token = (): string => randomBytes(24).toString('base64url');
const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');
/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
const formDecode = (value: string): string => decodeURIComponent(value.replace(/\+/g, ' '));

export async function startRogueIdp(options: RogueIdpOptions = {}): Promise<RogueIdp> {
	const accounts = { ...DEFAULT_ACCOUNTS, ...options.accounts };
	const clients: RogueClient[] = [
		{
			client_id: ROGUE_CLIENT_ID,
			client_secret: ROGUE_CLIENT_SECRET,
			token_endpoint_auth_method: 'client_secret_basic',
			redirect_uris: [...(options.redirectUris ?? [])]
		},
		...(options.clients ?? [])
	];
	const { keys, publicGood } = await makeSigningKeys();
	const jwks = { keys: [{ ...(await exportJWK(publicGood)), kid: GOOD_KID, alg: 'RS256', use: 'sig' }] };
	const behaviour: RogueBehaviour = { login: 'alice' };
	const queue: TokenResponseVariant[] = [];
	const codes = new Map<string, CodeGrant>();
	const accessTokens = new Map<string, TokenGrant>();
	const refreshTokens = new Map<string, TokenGrant>();
	let issuer = '';

	const tenant = options.tenant;
	const discovery = (): Record<string, unknown> => ({
		issuer: behaviour.discoveryIssuer ?? (tenant ? `${issuer}/{tenantid}/v2.0` : issuer),
		authorization_endpoint: `${issuer}/authorize`,
		token_endpoint: `${issuer}/token`,
		userinfo_endpoint: `${issuer}/userinfo`,
		jwks_uri: `${issuer}/jwks`,
		response_types_supported: ['code'],
		response_modes_supported: ['query'],
		grant_types_supported: ['authorization_code', 'refresh_token'],
		subject_types_supported: ['public'],
		id_token_signing_alg_values_supported: ['RS256'],
		token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
		code_challenge_methods_supported: ['S256'],
		scopes_supported: ['openid', 'email', 'profile', 'offline_access'],
		claims_supported: ['sub', 'email', 'email_verified', 'name', 'picture'],
		...(!tenant && { authorization_response_iss_parameter_supported: true })
	});

	function authorizeRequest(url: URL, res: ServerResponse): void {
		const q = url.searchParams;
		const client = clients.find((c) => c.client_id === q.get('client_id'));
		const redirectUri = q.get('redirect_uri') ?? '';
		// Like a real OP: never redirect to an unregistered URI, answer the user agent instead.
		if (!client || !client.redirect_uris.includes(redirectUri)) {
			res.writeHead(400, { 'content-type': 'text/plain' });
			return void res.end('invalid client_id or redirect_uri');
		}
		const back = new URL(redirectUri);
		const state = q.get('state');
		const fail = (error: string, description: string): void => {
			back.searchParams.set('error', error);
			back.searchParams.set('error_description', description);
			if (state !== null) back.searchParams.set('state', state);
			back.searchParams.set('iss', issuer);
			res.writeHead(302, { location: back.href });
			res.end();
		};
		if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'only code');
		const codeChallenge = q.get('code_challenge');
		const withoutPkce = behaviour.pkceOptional && codeChallenge === null;
		if (!withoutPkce && (!codeChallenge || q.get('code_challenge_method') !== 'S256')) {
			return fail('invalid_request', 'PKCE with S256 is required');
		}
		const hint = q.get('login_hint');
		const login = hint && accounts[hint] ? hint : behaviour.login;
		const code = token();
		const nonce = q.get('nonce');
		codes.set(code, {
			clientId: client.client_id,
			redirectUri,
			codeChallenge: codeChallenge ?? '',
			scope: q.get('scope') ?? '',
			login,
			...(nonce !== null && { nonce })
		});
		back.searchParams.set('code', code);
		const sentState = behaviour.responseState === undefined ? state : behaviour.responseState;
		if (sentState !== null) back.searchParams.set('state', sentState);
		const sentIss = behaviour.responseIss === undefined ? (tenant ? null : issuer) : behaviour.responseIss;
		if (sentIss !== null) back.searchParams.set('iss', sentIss);
		res.writeHead(302, { location: back.href });
		res.end();
	}

	function authenticateClient(req: IncomingMessage, body: URLSearchParams): RogueClient | undefined {
		const header = req.headers.authorization;
		let client: RogueClient | undefined;
		if (header?.startsWith('Basic ')) {
			const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
			const colon = decoded.indexOf(':');
			const id = formDecode(decoded.slice(0, colon));
			client = clients.find((c) => c.client_id === id);
			const ok = client?.token_endpoint_auth_method === 'client_secret_basic' && client.client_secret === formDecode(decoded.slice(colon + 1));
			if (!ok) return undefined;
		} else {
			client = clients.find((c) => c.client_id === body.get('client_id'));
			const secret = body.get('client_secret');
			const method = secret === null ? 'none' : 'client_secret_post';
			if (client?.token_endpoint_auth_method !== method || (secret !== null && client.client_secret !== secret)) return undefined;
		}
		const bodyId = body.get('client_id');
		return bodyId === null || bodyId === client?.client_id ? client : undefined;
	}

	async function tokenRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		if (req.method !== 'POST') return json(res, 405, { error: 'invalid_request' });
		const body = await readForm(req);
		const client = authenticateClient(req, body);
		if (!client) return json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
		const invalidGrant = (why: string): void => json(res, 400, { error: 'invalid_grant', error_description: why });
		const variant = queue.shift() ?? 'good';
		// A server that is down answers before looking at the grant, which stays usable.
		if (variant === 'unavailable') {
			return json(res, 503, { error: 'temporarily_unavailable', error_description: 'the rogue OP was told to be down' });
		}

		let grant: TokenGrant;
		let nonce: string | undefined;
		const grantType = body.get('grant_type');
		if (grantType === 'authorization_code') {
			const code = body.get('code') ?? '';
			const entry = codes.get(code);
			if (!behaviour.reuseCodes) codes.delete(code); // one use only, whatever happens next
			if (!entry || entry.clientId !== client.client_id) return invalidGrant('unknown or used code');
			if (entry.redirectUri !== body.get('redirect_uri')) return invalidGrant('redirect_uri mismatch');
			const verifier = body.get('code_verifier');
			if (entry.codeChallenge !== '' && (!verifier || s256(verifier) !== entry.codeChallenge)) return invalidGrant('PKCE verification failed');
			grant = { clientId: client.client_id, login: entry.login, scope: entry.scope };
			nonce = entry.nonce;
		} else if (grantType === 'refresh_token') {
			const refresh = body.get('refresh_token') ?? '';
			const entry = refreshTokens.get(refresh);
			refreshTokens.delete(refresh); // rotation: the old one is spent
			if (!entry || entry.clientId !== client.client_id) return invalidGrant('unknown refresh token');
			grant = entry;
		} else {
			return json(res, 400, { error: 'unsupported_grant_type' });
		}

		if (variant === 'error') return invalidGrant('the rogue OP was told to fail this token request');
		const account = accounts[grant.login];
		if (!account) return invalidGrant('unknown account');
		const access = token();
		const refresh = token();
		accessTokens.set(access, grant);
		refreshTokens.set(refresh, grant);
		const flaw = variant === 'good' ? undefined : variant;
		json(res, 200, {
			access_token: access,
			token_type: 'Bearer',
			expires_in: 3600,
			scope: grant.scope,
			refresh_token: refresh,
			id_token: await idToken(
				{
					issuer: tenant ? `${issuer}/${behaviour.issuerTenant ?? tenant}/v2.0` : issuer,
					clientId: client.client_id,
					claims: tenant ? { ...account, tid: tenant } : account,
					...(nonce !== undefined && { nonce })
				},
				flaw,
				keys
			)
		});
	}

	function userinfoRequest(req: IncomingMessage, res: ServerResponse): void {
		const header = req.headers.authorization ?? '';
		const grant = header.startsWith('Bearer ') ? accessTokens.get(header.slice(7)) : undefined;
		const account = grant && accounts[grant.login];
		if (!account) {
			res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
			return void res.end();
		}
		json(res, 200, { ...account, sub: behaviour.userinfoSub ?? account.sub });
	}

	const classify = classifier(tenant);
	const server = await startLoopback(classify, async (origin) => {
		issuer = origin;
		return async (req, res) => {
			const url = new URL(req.url ?? '/', origin);
			switch (classify(url.pathname)) {
				case 'discovery':
					return json(res, 200, discovery(), { 'cache-control': 'max-age=0' });
				case 'jwks':
					return json(res, 200, jwks);
				case 'authorization':
					return authorizeRequest(url, res);
				case 'token':
					return tokenRequest(req, res);
				case 'userinfo':
					return userinfoRequest(req, res);
				default:
					return json(res, 404, { error: 'not_found' });
			}
		};
	});

	return {
		issuer,
		port: server.port,
		clientId: ROGUE_CLIENT_ID,
		clientSecret: ROGUE_CLIENT_SECRET,
		accounts,
		behaviour,
		jwks,
		counts: server.counts,
		resetCounts: server.resetCounts,
		pause: server.pause,
		resume: server.resume,
		close: server.close,
		nextTokenResponse: (...variants) => void queue.push(...variants),
		allowRedirectUri: (uri) => void clients[0]?.redirect_uris.push(uri),
		reset() {
			for (const key of Object.keys(behaviour)) Reflect.deleteProperty(behaviour, key);
			behaviour.login = 'alice';
			queue.length = 0;
		},
		async completeInteraction(authorizationUrl) {
			const res = await fetch(authorizationUrl, { redirect: 'manual' });
			const location = res.headers.get('location');
			if (res.status !== 302 || !location) throw new Error(`rogue /authorize answered ${res.status}: ${await res.text()}`);
			return new URL(location);
		}
	};
}
