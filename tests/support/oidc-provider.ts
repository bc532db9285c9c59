/**
 * A real OpenID Provider for the OAuth/OIDC tests: `oidc-provider` 9.13 in-process on
 * `http://127.0.0.1:<random port>` (the issuer is that origin), with its built-in login and consent
 * pages (`devInteractions`) driven by `completeInteraction()`.
 *
 * Defaults: one confidential client `kitauth-test` (`client_secret_basic`, code flow, refresh
 * grant allowed), accounts `alice` and `bob`, scopes `openid email profile offline_access`,
 * RS256 (and an ES256) signing key made with jose, PKCE required for every client.
 *
 * Refresh tokens (oidc-provider's rules, verified here):
 * - the client needs `refresh_token` in `grant_types` (every client here gets it unless it says
 *   otherwise);
 * - by default (`refreshTokens: 'offline_access'`) a refresh token is issued only when the
 *   granted scope contains `offline_access`, and oidc-provider silently DROPS `offline_access`
 *   from an authorization request whose `prompt` lacks `consent`. So ask for
 *   `scope=openid … offline_access&prompt=consent` (Google-style);
 * - `refreshTokens: 'always'` issues one to every client allowed the grant, whatever the scope.
 * - `rotateRefreshToken` (default true) returns a new refresh token on each refresh and makes the
 *   old one unusable; reusing a rotated one revokes the whole grant.
 *
 * ID tokens carry the scope-granted claims (email, name, picture…) like Google's do, unless
 * `conformIdTokenClaims: true` (then they are only served by userinfo, oidc-provider's default).
 *
 * Expected console noise: one "devInteractions is enabled" warning per start. The other notices are
 * silenced by explicit `ttl`, `jwks`, `cookies.keys`, `renderError` and our own storage adapter.
 * Nothing here logs tokens.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type ClientMetadata, type Configuration, type JWK } from 'oidc-provider';
import {
	DEFAULT_ACCOUNTS,
	startLoopback,
	type IdpEndpoint,
	type LoopbackServer,
	type TestAccount
} from './idp-shared.js';
import { driveInteraction, type AuthorizationOutcome, type InteractionOptions } from './oidc-interaction.js';
import { memoryAdapterFactory } from './oidc-memory-adapter.js';

export { DEFAULT_ACCOUNTS, type TestAccount } from './idp-shared.js';
export type { AuthorizationOutcome, InteractionOptions } from './oidc-interaction.js';

export const TEST_CLIENT_ID = 'kitauth-test';
export const TEST_CLIENT_SECRET = 'kitauth-test-secret-0123456789abcdef';

export interface TestIdpOptions {
	/** `redirect_uris` of the default client `kitauth-test`. */
	redirectUris?: string[];
	/** Fields merged over the default client's metadata. */
	defaultClient?: Partial<ClientMetadata>;
	/**
	 * More clients, as oidc-provider client metadata: e.g. `token_endpoint_auth_method` `client_secret_post`,
	 * `none` (public), `private_key_jwt` (with the public `jwks`); `response_modes: ['form_post']`;
	 * `id_token_signed_response_alg: 'ES256'` (RS256 and ES256 keys exist; oidc-provider 9 cannot
	 * issue unsigned `alg: none` ID tokens at all). `grant_types` defaults to code + refresh.
	 */
	clients?: ClientMetadata[];
	/** Login name → account, merged over `alice` and `bob`. */
	accounts?: Record<string, TestAccount>;
	/** Lifetimes in seconds; short access tokens make refresh tests possible. */
	ttl?: { accessToken?: number; idToken?: number; refreshToken?: number; authorizationCode?: number };
	/** When to issue refresh tokens (see the module comment). Default `'offline_access'`. */
	refreshTokens?: 'offline_access' | 'always';
	/** Default `true`. */
	rotateRefreshToken?: boolean;
	/** Default `false`: profile and e-mail claims are put into the ID token too. */
	conformIdTokenClaims?: boolean;
	/** Default `true`: authorization requests without `code_challenge` are refused. */
	pkceRequired?: boolean;
	/**
	 * Also offer HS256 ID tokens (signed with the client secret) to clients registered with
	 * `id_token_signed_response_alg: 'HS256'`. Default `false`: RS256 and ES256 only.
	 */
	hmacIdTokens?: boolean;
}

export interface TestIdp extends Omit<LoopbackServer, 'origin'> {
	/** `http://127.0.0.1:<port>`, without a trailing slash. */
	issuer: string;
	clientId: string;
	clientSecret: string;
	accounts: Readonly<Record<string, TestAccount>>;
	/** The oidc-provider instance, for anything not wrapped here. */
	provider: Provider;
	/** Follows an authorization URL through login/consent; returns where the OP sends the user agent. */
	authorize(authorizationUrl: string | URL, options?: InteractionOptions): Promise<AuthorizationOutcome>;
	/** `authorize()` for query-mode clients: the redirect to `redirect_uri` (`code`, `state`, `iss`, or `error`). */
	completeInteraction(authorizationUrl: string | URL, options?: InteractionOptions): Promise<URL>;
	/** `authorize()` for `form_post` clients: the fields the page would POST to `action`. */
	completeFormPost(
		authorizationUrl: string | URL,
		options?: InteractionOptions
	): Promise<{ action: URL; fields: URLSearchParams }>;
	/** Cancels at the first page: the redirect with `error=access_denied`. */
	deny(authorizationUrl: string | URL, options?: Omit<InteractionOptions, 'deny'>): Promise<URL>;
}

function classify(pathname: string): IdpEndpoint {
	if (pathname === '/.well-known/openid-configuration') return 'discovery';
	if (pathname === '/jwks') return 'jwks';
	if (pathname === '/auth' || pathname.startsWith('/auth/')) return 'authorization';
	if (pathname.startsWith('/interaction/')) return 'interaction';
	if (pathname === '/token') return 'token';
	if (pathname === '/me') return 'userinfo';
	return 'other';
}

async function signingKey(alg: 'RS256' | 'ES256'): Promise<JWK> {
	const { privateKey } = await generateKeyPair(alg, { extractable: true });
	return { ...(await exportJWK(privateKey)), alg, use: 'sig', kid: `test-${alg.toLowerCase()}` };
}

/** The claims each scope releases; any extra account claim rides on `profile`. */
function claimsConfig(accounts: Record<string, TestAccount>): Configuration['claims'] {
	const standard = new Set(['sub', 'email', 'email_verified']);
	const profile = new Set(['name', 'picture']);
	for (const account of Object.values(accounts)) {
		for (const claim of Object.keys(account)) if (!standard.has(claim)) profile.add(claim);
	}
	return { openid: ['sub'], email: ['email', 'email_verified'], profile: [...profile] };
}

function buildConfiguration(options: TestIdpOptions, accounts: Record<string, TestAccount>, jwks: JWK[]): Configuration {
	const ttl = options.ttl ?? {};
	const refreshTokens = options.refreshTokens ?? 'offline_access';
	const pkceRequired = options.pkceRequired ?? true;
	const defaultClient: ClientMetadata = {
		client_id: TEST_CLIENT_ID,
		client_secret: TEST_CLIENT_SECRET,
		redirect_uris: options.redirectUris ?? [],
		response_types: ['code'],
		token_endpoint_auth_method: 'client_secret_basic',
		...options.defaultClient
	};
	const clients = [defaultClient, ...(options.clients ?? [])].map(
		(client): ClientMetadata => ({ grant_types: ['authorization_code', 'refresh_token'], ...client })
	);

	return {
		adapter: memoryAdapterFactory(),
		clients,
		jwks: { keys: jwks },
		cookies: { keys: [randomBytes(32).toString('base64url')] },
		claims: claimsConfig(accounts),
		scopes: ['openid', 'offline_access', 'email', 'profile'],
		conformIdTokenClaims: options.conformIdTokenClaims ?? false,
		...(options.hmacIdTokens ? { enabledJWA: { idTokenSigningAlgValues: ['HS256', 'RS256', 'ES256'] } } : {}),
		features: { devInteractions: { enabled: true } },
		// oidc-provider 9 only *requires* PKCE for public clients by default; the brief wants it always.
		pkce: { required: () => pkceRequired },
		// oidc-provider takes `sub` from the accountId, so accounts are keyed by sub here and
		// authorize() types the account's sub into the login form.
		findAccount: (_ctx, id) => {
			const account = Object.values(accounts).find((a) => a.sub === id);
			return account && { accountId: account.sub, claims: () => ({ ...account }) };
		},
		issueRefreshToken: (_ctx, client, code) =>
			client.grantTypeAllowed('refresh_token') && (refreshTokens === 'always' || code.scopes.has('offline_access')),
		rotateRefreshToken: options.rotateRefreshToken ?? true,
		// Every ttl the code flow touches, so oidc-provider does not announce its defaults.
		ttl: {
			AccessToken: ttl.accessToken ?? 3600,
			AuthorizationCode: ttl.authorizationCode ?? 60,
			IdToken: ttl.idToken ?? 3600,
			RefreshToken: ttl.refreshToken ?? 14 * 24 * 3600,
			Grant: 14 * 24 * 3600,
			Interaction: 600,
			Session: 24 * 3600
		},
		renderError: (ctx, out) => {
			ctx.type = 'html';
			ctx.body = `<!DOCTYPE html><title>OP error</title><pre>${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? '')}</pre>`;
		}
	};
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startTestIdp(options: TestIdpOptions = {}): Promise<TestIdp> {
	const accounts = { ...DEFAULT_ACCOUNTS, ...options.accounts };
	const jwks = [await signingKey('RS256'), await signingKey('ES256')];
	let provider: Provider | undefined;
	const server = await startLoopback(classify, async (origin) => {
		provider = new Provider(origin, buildConfiguration(options, accounts, jwks));
		return provider.callback();
	});
	if (!provider) throw new Error('oidc-provider did not start');
	const issuer = server.origin;

	const authorize = (url: string | URL, interaction: InteractionOptions = {}): Promise<AuthorizationOutcome> => {
		const login = interaction.login ?? 'alice';
		return driveInteraction(issuer, url, { ...interaction, login: accounts[login]?.sub ?? login });
	};

	return {
		issuer,
		port: server.port,
		clientId: TEST_CLIENT_ID,
		clientSecret: TEST_CLIENT_SECRET,
		accounts,
		provider,
		counts: server.counts,
		resetCounts: server.resetCounts,
		pause: server.pause,
		resume: server.resume,
		close: server.close,
		authorize,
		async completeInteraction(url, interaction) {
			const outcome = await authorize(url, interaction);
			if (outcome.mode !== 'redirect') throw new Error('the OP answered with form_post: use completeFormPost()');
			return outcome.url;
		},
		async completeFormPost(url, interaction) {
			const outcome = await authorize(url, interaction);
			if (outcome.mode !== 'form_post') throw new Error(`the OP redirected instead of form_post: ${outcome.url.pathname}`);
			return { action: outcome.action, fields: outcome.fields };
		},
		async deny(url, interaction) {
			const outcome = await authorize(url, { ...interaction, deny: true });
			if (outcome.mode !== 'redirect') throw new Error('the OP answered with form_post: use authorize(url, { deny: true })');
			return outcome.url;
		}
	};
}
