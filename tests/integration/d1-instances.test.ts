/**
 * kitauth's D1 adapter with two app instances (two configurations, each with its own adapter
 * instance and limiter) on one D1 database in workerd (wrangler's local platform, migrated by the
 * wrangler CLI): the engines' scenarios (`engine-scenarios.ts`), and an OAuth access token
 * refreshed once across the instances (a real oidc-provider counts the token requests).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { D1Adapter } from '../../src/lib/adapters/d1/index.js';
import { Auth, createAuthServer } from '../../src/lib/core/index.js';
import { localD1, type LocalD1 } from '../adapter/d1-support.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { APP_ORIGIN, callbackUri, explain, localProvider, oauthApp, oauthSignIn } from '../support/oauth-app.js';
import { engineAppConfig } from './engine-app.js';
import { engineScenarios } from './engine-scenarios.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let d1: LocalD1;
let idp: TestIdp;
const links = new Map<string, string>();
const logged: string[] = [];
const logger = { error: (error: Error) => void logged.push(error.name), warn: () => {}, debug: () => {} };

beforeAll(async () => {
	d1 = await localD1();
	await d1.wranglerApply();
	idp = await startTestIdp({ redirectUris: [callbackUri('local')], refreshTokens: 'always', ttl: { accessToken: 60 } });
});

afterAll(async () => {
	await idp?.close();
	await d1?.close();
});

describe('two app instances on one D1 database', () => {
	let instances: ((request: Request) => Promise<Response>)[] = [];
	beforeAll(() => {
		const configs = [0, 1].map(() => engineAppConfig(D1Adapter(d1.db), links, logger, 30_000));
		instances = configs.map((config) => (request: Request) => Auth(request, config));
	});
	engineScenarios(() => {
		return {
			label: 'd1',
			instances,
			link: async (email) => links.get(email) ?? '',
			sessionRows: async () => {
				const { results } = await d1.db.prepare('SELECT count(*) AS n FROM "session"').all<{ n: number }>();
				return Number(results[0]?.n);
			},
			logged: () => logged
		};
	});

	test('both find the access token expired at once: one token request, the same new token for both', async () => {
		const [one, two] = [oauthApp([localProvider(idp)], { adapter: D1Adapter(d1.db) }), oauthApp([localProvider(idp)], { adapter: D1Adapter(d1.db) })];
		const browser = one.browser();
		const { res } = await oauthSignIn(browser, 'local', (url) => idp.completeInteraction(url, { login: 'alice' }));
		expect(res.status, explain(one.errors)).toBe(302);
		const url = `${APP_ORIGIN}/account`;
		const request = () => ({ url: new URL(url), request: new Request(url, { headers: { cookie: browser.cookieHeader() } }) });
		// One request reads the token; each request keeps what it read (one look-up per request),
		// so the two instances ask on requests of their own, two hours later.
		const before = await (await createAuthServer(one.config).session(request())).accessToken('local');
		idp.resetCounts();
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
		try {
			const [onOne, onTwo] = await Promise.all([createAuthServer(one.config).session(request()), createAuthServer(two.config).session(request())]);
			const [a, b] = await Promise.all([onOne.accessToken('local'), onTwo.accessToken('local')]);
			expect(idp.counts().token).toBe(1);
			expect(a, explain([...one.errors, ...two.errors])).toEqual(expect.any(String));
			expect(a).not.toBe(before);
			expect(b).toBe(a);
		} finally {
			vi.useRealTimers();
		}
	});
});
