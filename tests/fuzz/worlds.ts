/**
 * The apps the core fuzzer attacks: real configurations over the real `Auth()`, with every provider
 * type (credentials, OIDC and plain OAuth against a real IdP on loopback, email with a sender that
 * keeps the links to itself, passkeys), a real libSQL adapter, and a logger that records. Genuine
 * material (a CSRF pair, check cookies of a started OAuth sign-in, a WebAuthn challenge, tokens
 * sealed with other secrets and salts) is gathered from real requests.
 */
import { createClient, type Client } from '@libsql/client';
import { encode as authjsEncode } from '@auth/core/jwt';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { Auth } from '../../src/lib/core/index.js';
import { ROUTES } from '../../src/lib/core/router.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import type { OAuthConfig } from '../../src/lib/core/types/provider.js';
import { encode } from '../../src/lib/jwt.js';
import Email from '../../src/lib/providers/email.js';
import Passkey from '../../src/lib/providers/passkey.js';
import { cookieTable, legacySessionCookie, SESSION_COOKIE } from '../../src/lib/core/session/cookies.js';
import { setCookies, TestClient } from '../support/client.js';
import { ROGUE_CLIENT_ID, ROGUE_CLIENT_SECRET, roguePlainOAuth, type RogueIdp } from '../support/rogue-idp.js';
import { passwordProvider, SECRET } from '../integration/fixtures.js';
import type { FuzzTarget, Material } from './generator.js';

/** Every route of the route table (`METHOD action`), and the actions that take a provider id. */
export const ROUTE_KEYS: readonly string[] = Object.keys(ROUTES);
export const WITH_PROVIDER: readonly string[] = Object.entries(ROUTES)
	.filter(([, route]) => route.provider !== 'none')
	.map(([key]) => key.split(' ')[1] as string);

export interface World {
	name: string;
	target: FuzzTarget;
	handler: (request: Request) => Promise<Response>;
	/** Errors the core logged, in order. */
	errors: Error[];
	/** Links and codes the email sender was asked to send (never used by the fuzzer). */
	sent: number;
	/** The authorization endpoints a sign-in may redirect to. */
	authorizationEndpoints: string[];
	/** Rows in the session table (database worlds), from the test's own connection. */
	storedSessions(): Promise<number>;
	close(): void;
}

export interface WorldOptions {
	name: string;
	strategy: 'jwt' | 'database';
	origin: string;
	basePath: string;
	rogue: RogueIdp;
	overrides?: Partial<AuthConfig>;
}

export function callbackUris(origin: string, basePath: string): string[] {
	return ['rogue', 'rogue-oauth'].map((id) => `${origin}${basePath}/callback/${id}`);
}

export async function openWorld(options: WorldOptions): Promise<World> {
	const { rogue, origin, basePath } = options;
	const db: Client = createClient({ url: ':memory:' });
	await migrate(db);
	const errors: Error[] = [];
	let sent = 0;
	const oidc: OAuthConfig = { id: 'rogue', name: 'Rogue', type: 'oidc', issuer: rogue.issuer, clientId: ROGUE_CLIENT_ID, clientSecret: ROGUE_CLIENT_SECRET };
	const oauth = roguePlainOAuth(rogue.issuer, { id: 'rogue-oauth', name: 'Rogue OAuth', checks: ['pkce', 'state'] });
	const config: AuthConfig = {
		secret: SECRET,
		trustHost: true,
		basePath,
		adapter: LibSQLAdapter(db),
		session: { strategy: options.strategy },
		experimental: { enableWebAuthn: true },
		providers: [
			passwordProvider(),
			oidc,
			oauth,
			Email({
				from: 'fuzz <no-reply@example.test>',
				sendVerificationRequest: () => {
					sent++;
				}
			}),
			Passkey
		],
		logger: { error: (error) => errors.push(error), warn: () => {}, debug: () => {} },
		...options.overrides
	};
	const handler = (request: Request) => Auth(request, config);
	// The app's own cookie table: on https the session cookie is `__Host-`, and Auth.js's
	// `__Secure-` one is still read (once); the other variants must never open a session.
	const table = cookieTable(origin.startsWith('https:'));
	const legacy = legacySessionCookie(table)?.name;
	const cookies = {
		session: table.sessionToken.name,
		sessionAliases: SESSION_NAMES.filter((name) => name !== table.sessionToken.name),
		csrf: table.csrfToken.name,
		callbackUrl: table.callbackUrl.name,
		checks: [table.pkceCodeVerifier, table.state, table.nonce, table.webauthnChallenge, table.emailVerification].map((cookie) => cookie.name)
	};
	const unread = SESSION_NAMES.filter((name) => name !== cookies.session && name !== legacy);
	const material = await gatherMaterial(handler, origin, basePath, cookies.session, unread);
	const world: World = {
		name: options.name,
		target: { origin, basePath, routes: ROUTE_KEYS, withProvider: WITH_PROVIDER, providers: ['credentials', 'rogue', 'rogue-oauth', 'email', 'passkey'], cookies, material },
		handler,
		errors,
		get sent() {
			return sent;
		},
		authorizationEndpoints: [`${rogue.issuer}/authorize`],
		async storedSessions() {
			const { rows } = await db.execute('SELECT count(*) AS n FROM "session"');
			return Number(rows[0]?.['n']);
		},
		close: () => db.close()
	};
	return world;
}

/** The session cookie's name with each prefix (each its own key: HKDF's salt is the name). */
const SESSION_NAMES = [SESSION_COOKIE, `__Secure-${SESSION_COOKIE}`, `__Host-${SESSION_COOKIE}`];

/**
 * Genuine cookies and tokens from real requests, and session tokens no app of ours would accept
 * (`unread`: the session cookie names this app does not read, whose keys it must not accept either).
 */
async function gatherMaterial(handler: (request: Request) => Promise<Response>, origin: string, basePath: string, sessionCookie: string, unread: string[]): Promise<Material> {
	const client = new TestClient(handler, { origin, basePath });
	const csrfToken = await client.csrfToken();
	const csrfCookie = [...client.jar].find(([name]) => name.endsWith('authjs.csrf-token'))?.[1];
	if (!csrfCookie) throw new Error('no CSRF cookie');

	// A started OAuth sign-in: its check cookies and the state it sent to the IdP.
	const start = await client.post('signin/rogue-oauth', { form: { csrfToken } });
	const authorization = start.headers.get('location');
	if (start.status !== 302 || !authorization) throw new Error(`OAuth start answered ${start.status}`);
	const state = new URL(authorization).searchParams.get('state') ?? '';
	const oauthCookies = Object.fromEntries(setCookies(start).filter((c) => /state|pkce|nonce/.test(c.name)).map((c) => [c.name, c.value]));

	const options = await client.get('webauthn-options/passkey');
	const challenge = Object.fromEntries(setCookies(options).filter((c) => c.name.endsWith('authjs.challenge')).map((c) => [c.name, c.value]));

	const claims = { name: 'Alice', email: 'alice@example.com', sub: 'user-1' };
	const foreign = await Promise.all([
		// Another secret, with this app's salt.
		encode({ token: claims, secret: 'another-secret-0123456789abcdef0123456789', salt: sessionCookie }),
		authjsEncode({ token: claims, secret: 'another-secret-0123456789abcdef0123456789', salt: sessionCookie }),
		// This app's secret, another cookie's salt (a CSRF or callback cookie's key).
		encode({ token: claims, secret: SECRET, salt: 'authjs.csrf-token' }),
		...unread.map((salt) => encode({ token: claims, secret: SECRET, salt })),
		// This app's secret and salt, but expired an hour ago.
		encode({ token: claims, secret: SECRET, salt: sessionCookie, maxAge: -3600 }),
		// Database-session shaped: a random token no row has.
		'0'.repeat(64),
		crypto.randomUUID()
	]);
	return {
		csrfCookie,
		csrfToken,
		oauth: { provider: 'rogue-oauth', cookies: oauthCookies, state },
		challenge,
		foreignSessions: foreign
	};
}
