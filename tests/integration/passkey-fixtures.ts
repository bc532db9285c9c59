/**
 * Shared set-up for the passkey suites: a real configuration (Passkey next to the password
 * provider, WebAuthn enabled) over a real `LibSQLAdapter` on `:memory:`, the real `Auth()`, and a
 * software authenticator making genuine registration and authentication responses.
 */
import { createClient, type Client } from '@libsql/client';
import { expect } from 'vitest';
import { LibSQLAdapter, migrate, type LibSQLAdapterInstance } from '../../src/lib/adapters/libsql/index.js';
import { createAuthServer, type CurrentSession } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import Passkey from '../../src/lib/providers/passkey.js';
import type { TestClient } from '../support/client.js';
import { type CeremonyTweaks, SoftAuthenticator, type SoftCredential } from '../support/webauthn-authenticator.js';
import { ORIGIN, passwordProvider, setup, type Setup } from './fixtures.js';

export const STRATEGIES = ['database', 'jwt'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export const CHALLENGE_COOKIE = 'authjs.challenge';

export interface Regression {
	userId: string;
	provider: string;
	credentialID: string;
	storedCounter: number;
	receivedCounter: number;
}

export interface PasskeySetup extends Setup {
	db: Client;
	adapter: LibSQLAdapterInstance;
	regressions: Regression[];
	/** The server API over the same config: the session of a client's cookies. */
	current(client: TestClient): Promise<CurrentSession>;
}

export async function passkeySetup(strategy: Strategy, overrides: Partial<AuthConfig> = {}): Promise<PasskeySetup> {
	const db = createClient({ url: ':memory:' });
	await migrate(db);
	const adapter = LibSQLAdapter(db);
	const regressions: Regression[] = [];
	const s = setup({
		adapter,
		session: { strategy },
		experimental: { enableWebAuthn: true },
		providers: [passwordProvider(), Passkey],
		events: { authenticatorCounterRegression: (message) => void regressions.push(message) },
		...overrides
	});
	const server = createAuthServer(s.config);
	return {
		...s,
		db,
		adapter,
		regressions,
		current: (client) =>
			server.session({
				url: new URL(`${client.origin}/account`),
				request: new Request(`${client.origin}/account`, { headers: { cookie: client.cookieHeader() } })
			})
	};
}

export function authenticator(tweaks: ConstructorParameters<typeof SoftAuthenticator>[1] = {}, origin = ORIGIN): SoftAuthenticator {
	return new SoftAuthenticator(origin, tweaks);
}

/** GET webauthn-options/<provider> → the response and its parsed body. */
export async function options(client: TestClient, query: Record<string, string> = {}, provider = 'passkey') {
	const res = await client.get(`webauthn-options/${provider}`, { query });
	const json = (res.headers.get('content-type') ?? '').includes('application/json');
	const body = (json ? await res.json() : { error: await res.text() }) as { action: 'register' | 'authenticate'; options: never } & {
		error?: string;
	};
	return { res, body };
}

/** POST callback/<provider> with `action`, `data` (the credential response JSON) and a CSRF token. */
export function callback(client: TestClient, action: string, data: unknown, provider = 'passkey', extra: Record<string, string> = {}) {
	return client.postForm(`callback/${provider}`, {
		action,
		data: typeof data === 'string' ? data : JSON.stringify(data),
		callbackUrl: `${client.origin}/account`,
		...extra
	});
}

/** Signs up (signed out) or adds a passkey (signed in) through the real endpoints. */
export async function register(client: TestClient, auth: SoftAuthenticator, query: Record<string, string>, tweaks: CeremonyTweaks & { credentialId?: string } = {}, provider = 'passkey') {
	const { res, body } = await options(client, { action: 'register', ...query }, provider);
	expect(res.status, JSON.stringify(body)).toBe(200);
	expect(body.action).toBe('register');
	return callback(client, 'register', auth.create(body.options, tweaks), provider);
}

/** Signs in with a passkey (a discoverable-credential ceremony unless `query` names a user). */
export async function authenticate(
	client: TestClient,
	auth: SoftAuthenticator,
	tweaks: CeremonyTweaks & { credential?: SoftCredential; bump?: boolean } = {},
	query: Record<string, string> = {},
	provider = 'passkey'
) {
	const { res, body } = await options(client, { action: 'authenticate', ...query }, provider);
	expect(res.status, JSON.stringify(body)).toBe(200);
	return callback(client, 'authenticate', auth.get(body.options, tweaks), provider);
}

export async function count(db: Client, table: string): Promise<number> {
	const { rows } = await db.execute(`SELECT count(*) AS n FROM "${table}"`);
	return Number(rows[0]!.n);
}
