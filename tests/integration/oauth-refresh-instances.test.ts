/**
 * An OAuth access-token refresh runs once across instances: two app instances (two
 * configurations, each with its own adapter instance and its own in-process single flight) on
 * one shared database both find the stored access token expired at the same moment; a real
 * OpenID Provider (oidc-provider, rotating refresh tokens) counts ONE token request, and both get
 * the same new token. The lease is one conditional statement on the shared store
 * (`Adapter.acquireLease`), on PostgreSQL and on a libSQL file.
 *
 * Only `Date` is faked, to step past the access token's expiry (see oauth-refresh.test.ts).
 */
import { createClient } from '@libsql/client';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { LibSQLAdapter, migrate as migrateLibSQL } from '../../src/lib/adapters/libsql/index.js';
import { migrate as migratePostgres, PostgresAdapter } from '../../src/lib/adapters/postgres/index.js';
import { createAuthServer } from '../../src/lib/core/index.js';
import type { Adapter } from '../../src/lib/core/types.js';
import { tempDatabase, type TempDatabase } from '../adapter/support.js';
import type { TestClient } from '../support/client.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { APP_ORIGIN, callbackUri, explain, localProvider, oauthApp, oauthSignIn, type OAuthApp } from '../support/oauth-app.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

let idp: TestIdp;
let cluster: PostgresCluster;
let database: TempDatabase;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
	idp = await startTestIdp({ redirectUris: [callbackUri('local')], refreshTokens: 'always', ttl: { accessToken: 60 } });
	cluster = await startPostgres();
	const pool = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
	await migratePostgres(pool);
	await pool.end();
	database = tempDatabase('kitauth-refresh-');
	const client = createClient({ url: database.url });
	await migrateLibSQL(client);
	client.close();
}, 120_000);

afterAll(async () => {
	for (const close of closers.splice(0)) await close();
	await idp?.close();
	cluster?.stop();
	database?.remove();
});

afterEach(() => vi.useRealTimers());

const engines: { name: string; adapter: () => Adapter }[] = [
	{
		name: 'PostgreSQL',
		adapter: () => {
			const pool = new pg.Pool({ connectionString: cluster.connectionString, max: 4 });
			closers.push(() => pool.end());
			return PostgresAdapter(pool);
		}
	},
	{ name: 'a libSQL file', adapter: () => LibSQLAdapter({ url: database.url }) }
];

/** The browser's session as server code on `app` sees it. */
function serverSide(app: OAuthApp, browser: TestClient) {
	const url = `${APP_ORIGIN}/account`;
	return createAuthServer(app.config).session({ url: new URL(url), request: new Request(url, { headers: { cookie: browser.cookieHeader() } }) });
}

for (const { name, adapter } of engines) {
	describe(`two instances on ${name}`, () => {
		test('both find the access token expired at once: one token request, the same new token for both', async () => {
			const [one, two] = [oauthApp([localProvider(idp)], { adapter: adapter() }), oauthApp([localProvider(idp)], { adapter: adapter() })];
			const browser = one.browser();
			const { res } = await oauthSignIn(browser, 'local', (url) => idp.completeInteraction(url, { login: 'alice' }));
			expect(res.status, explain(one.errors)).toBe(302);
			// One request reads the token; each request keeps what it read (one look-up per request),
			// so the two instances ask on requests of their own, two hours later.
			const before = await (await serverSide(one, browser)).accessToken('local');
			expect(before).toEqual(expect.any(String));

			idp.resetCounts();
			vi.useFakeTimers({ toFake: ['Date'] });
			vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
			const [onOne, onTwo] = await Promise.all([serverSide(one, browser), serverSide(two, browser)]);
			const [a, b] = await Promise.all([onOne.accessToken('local'), onTwo.accessToken('local')]);
			expect(idp.counts().token).toBe(1);
			expect(a, explain([...one.errors, ...two.errors])).toEqual(expect.any(String));
			expect(a).not.toBe(before);
			expect(b).toBe(a);
			expect(onOne.session?.error).toBeUndefined();
			expect(onTwo.session?.error).toBeUndefined();
			expect([...one.errors, ...two.errors]).toEqual([]);
		});
	});
}
