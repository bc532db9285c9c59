/**
 * The redirect proxy (`redirectProxyUrl`): preview deployments share one redirect URI registered at
 * the IdP, that of a stable deployment, which hands each callback back to the deployment that
 * started the flow. Two `Auth()` configurations play the two deployments (same secret, different
 * origins); the IdP is a real oidc-provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import {
	APP_ORIGIN,
	callbackUri,
	expectRefused,
	explain,
	localProvider,
	oauthApp,
	OAUTH_SECRET,
	sessionCookiesSet,
	signInPageError,
	startSignIn,
	STATE_COOKIE
} from '../support/oauth-app.js';

const PROXY_ORIGIN = 'http://proxy.test';
const PROXY_URL = `${PROXY_ORIGIN}/auth`;

let idp: TestIdp;

beforeAll(async () => {
	idp = await startTestIdp({ redirectUris: [callbackUri('local', PROXY_ORIGIN)] });
});
afterAll(() => idp.close());
beforeEach(() => idp.resetCounts());

/** The preview deployment (app.test) and the stable one (proxy.test), sharing the secret. */
function deployments(secret = OAUTH_SECRET) {
	const preview = oauthApp([localProvider(idp)], { redirectProxyUrl: PROXY_URL, secret });
	const stable = oauthApp([localProvider(idp)], { redirectProxyUrl: PROXY_URL, secret: OAUTH_SECRET }, PROXY_ORIGIN);
	return { preview, stable };
}

describe('redirect proxy', () => {
	test('the stable deployment forwards the callback, with all its parameters, to the deployment that started it', async () => {
		const { preview, stable } = deployments();
		const browser = preview.browser();
		const { url, cookies } = await startSignIn(browser, 'local', { form: { callbackUrl: '/preview-page' } });
		expect(url.searchParams.get('redirect_uri')).toBe(callbackUri('local', PROXY_ORIGIN));
		// Behind a proxy the state is sealed (a JWE): it names the deployment that started the flow.
		expect(url.searchParams.get('state')?.split('.')).toHaveLength(5);
		expect(cookies.map((c) => c.name)).toContain(STATE_COOKIE);

		const atProxy = await idp.completeInteraction(url);
		expect(`${atProxy.origin}${atProxy.pathname}`).toBe(callbackUri('local', PROXY_ORIGIN));

		// The user agent reaches the stable deployment with no cookies of the preview's.
		const forwarded = await stable.browser().get(atProxy.href);
		expect(forwarded.status).toBe(302);
		expect(sessionCookiesSet(forwarded)).toEqual([]);
		const target = new URL(forwarded.headers.get('location') ?? '');
		expect(`${target.origin}${target.pathname}`).toBe(callbackUri('local', APP_ORIGIN));
		expect([...target.searchParams].sort()).toEqual([...atProxy.searchParams].sort());
		expect([...target.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
		expect(idp.counts().token).toBe(0);

		const res = await browser.get(target.href);
		expect(res.headers.get('location'), explain(preview.errors)).toBe(`${APP_ORIGIN}/preview-page`);
		expect(sessionCookiesSet(res)).toHaveLength(1);
		expect(idp.counts().token).toBe(1);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('the stable deployment signs its own users in directly (no forwarding loop)', async () => {
		const { stable } = deployments();
		const browser = stable.browser();
		const { url } = await startSignIn(browser, 'local');
		const callback = await idp.completeInteraction(url);
		const res = await browser.get(callback.href);
		expect(res.headers.get('location'), explain(stable.errors)).toBe(`${PROXY_ORIGIN}/`);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('a state sealed with another secret names no forwarding target', async () => {
		const { preview, stable } = deployments('a-different-secret-0123456789abcdef0123456');
		const { url } = await startSignIn(preview.browser(), 'local');
		const atProxy = await idp.completeInteraction(url);
		const proxyBrowser = stable.browser();
		const res = await proxyBrowser.get(atProxy.href);
		// Handled (and refused) by the stable deployment itself, which has no check cookies for it.
		await expectRefused(proxyBrowser, res, signInPageError('OAuthCallbackError', PROXY_ORIGIN));
		expect(idp.counts().token).toBe(0);
	});

	test('redirectProxyUrl on one provider only (none global): that provider is proxied, the others are not', async () => {
		const proxied = localProvider(idp, { redirectProxyUrl: PROXY_URL });
		const direct = localProvider(idp, { id: 'direct', name: 'Direct' });
		const preview = oauthApp([proxied, direct]);
		const stable = oauthApp([localProvider(idp, { redirectProxyUrl: PROXY_URL })], {}, PROXY_ORIGIN);
		expect(preview.config.redirectProxyUrl).toBeUndefined();

		const other = await startSignIn(preview.browser(), 'direct');
		expect(other.url.searchParams.get('redirect_uri')).toBe(callbackUri('direct'));
		expect(other.url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);

		const browser = preview.browser();
		const { url } = await startSignIn(browser, 'local', { form: { callbackUrl: '/preview-page' } });
		expect(url.searchParams.get('redirect_uri')).toBe(callbackUri('local', PROXY_ORIGIN));
		expect(url.searchParams.get('state')?.split('.')).toHaveLength(5);
		const forwarded = await stable.browser().get((await idp.completeInteraction(url)).href);
		const target = new URL(forwarded.headers.get('location') ?? '');
		expect(`${target.origin}${target.pathname}`).toBe(callbackUri('local', APP_ORIGIN));
		const res = await browser.get(target.href);
		expect(res.headers.get('location'), explain(preview.errors)).toBe(`${APP_ORIGIN}/preview-page`);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('back on the preview, the callback without its state is refused before the exchange', async () => {
		const { preview, stable } = deployments();
		const browser = preview.browser();
		const { url } = await startSignIn(browser, 'local');
		const forwarded = await stable.browser().get((await idp.completeInteraction(url)).href);
		const target = new URL(forwarded.headers.get('location') ?? '');
		target.searchParams.delete('state');
		const res = await browser.get(target.href);
		await expectRefused(browser, res, signInPageError('OAuthCallbackError'));
		expect(idp.counts().token).toBe(0);
	});
});
