/**
 * A lazy configuration (a function of the request that builds a new config object each time, as
 * `SvelteKitAuth(async (event) => ({ … }))` apps do) keeps one runtime: many concurrent requests
 * discover the provider once and refresh a token once, because the discovery cache and the refresh
 * single-flight belong to the long-lived instance, not to each config object.
 */
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { type AuthConfig, lazyAuthServer } from '../../src/lib/core/index.js';
import { TestClient } from '../support/client.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { APP_ORIGIN, callbackUri, localProvider, OAUTH_SECRET, oauthSignIn } from '../support/oauth-app.js';

let idp: TestIdp;
beforeAll(async () => {
	idp = await startTestIdp({ redirectUris: [callbackUri('local')], refreshTokens: 'always', ttl: { accessToken: 60 } });
});
afterAll(() => idp.close());
afterEach(() => vi.useRealTimers());

/** The app: every request gets a brand-new config object (and provider object). */
function lazyApp() {
	let built = 0;
	const servers = lazyAuthServer((_request: Request): AuthConfig => {
		built += 1;
		return { secret: OAUTH_SECRET, trustHost: true, providers: [localProvider(idp)] };
	});
	const handler = async (request: Request) => (await servers(request)).handle(request);
	return { browser: () => new TestClient(handler, { origin: APP_ORIGIN }), built: () => built };
}

test('many concurrent sign-ins through a lazy config discover the provider once', async () => {
	idp.resetCounts();
	const app = lazyApp();
	const browsers = Array.from({ length: 8 }, () => app.browser());
	const started = await Promise.all(browsers.map((browser) => browser.postForm('signin/local', {})));
	for (const res of started) expect(res.headers.get('location')).toMatch(new RegExp(`^${idp.issuer}/auth\\?`));
	// Sixteen requests (a CSRF token and a start each), sixteen config objects, one discovery.
	expect(app.built()).toBeGreaterThanOrEqual(16);
	expect(idp.counts().discovery).toBe(1);
});

test('many concurrent session reads through a lazy config refresh an expired token once', async () => {
	const app = lazyApp();
	const browser = app.browser();
	const { res } = await oauthSignIn(browser, 'local', (url) => idp.completeInteraction(url, { login: 'alice' }));
	expect(res.status).toBe(302);
	idp.resetCounts();
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
	const cookie = browser.cookieHeader();
	const reads = await Promise.all(
		Array.from({ length: 8 }, () => app.browser().get('session', { headers: { cookie } }).then((r) => r.json()))
	);
	for (const session of reads) expect(session).toMatchObject({ user: { email: 'alice@example.test' } });
	for (const session of reads) expect(session).not.toHaveProperty('error');
	expect(idp.counts().token).toBe(1);
});
