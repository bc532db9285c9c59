/**
 * Presets whose vendor departs from OAuth 2, signed in through the real `Auth()` callback (code
 * exchange and response checks by oauth4webapi, the preset's hooks, the session): each vendor's
 * token and user endpoints are played by a loopback server answering as the vendor documents,
 * since the vendors' production servers cannot run here. The browser's visit to the vendor is
 * skipped: the test returns to the callback with a code and the state kitauth sent.
 */
import { Buffer } from 'node:buffer';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { normalizeProviders } from '../../src/lib/core/providers/normalize.js';
import type { OAuthConfig } from '../../src/lib/core/types.js';
import Dropbox from '../../src/lib/providers/dropbox.js';
import Reddit from '../../src/lib/providers/reddit.js';
import TikTok from '../../src/lib/providers/tiktok.js';
import VK from '../../src/lib/providers/vk.js';
import { APP_ORIGIN, callbackUri, explain, oauthApp, startSignIn } from '../support/oauth-app.js';
import { serveJson, type ReceivedRequest } from '../unit/providers/helpers.js';

const CLIENT_ID = 'vendor-client';
const CLIENT_SECRET = 'vendor-secret-0123456789';
const CODE = 'the-authorization-code';

/** `id:secret` of an HTTP Basic header, each part form-urlencoded as RFC 6749 §2.3.1 has it (and oauth4webapi sends it). */
function basicCredentials(request: ReceivedRequest): string | undefined {
	const header = request.headers.authorization;
	if (typeof header !== 'string' || !header.startsWith('Basic ')) return undefined;
	const [id = '', secret = ''] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
	return `${decodeURIComponent(id)}:${decodeURIComponent(secret)}`;
}

function form(request: ReceivedRequest | undefined): Record<string, string> {
	return Object.fromEntries(new URLSearchParams(request?.body ?? ''));
}

const vendor = await serveJson({
	// VK: no token_type; the email rides on the token response.
	'/vk/access_token': () => ({ body: { access_token: 'vk1.a.token', expires_in: 86400, user_id: 210700286, email: 'lindsey@acme.test' } }),
	'/vk/method/users.get': () => ({ body: { response: [{ id: 210700286, first_name: 'Lindsey', last_name: 'Stirling', photo_100: 'https://sun1.userapi.com/a.jpg' }] } }),
	// TikTok: a client_key is required beside the secret.
	'/tiktok/v2/oauth/token/': (_origin, request) =>
		form(request).client_key === CLIENT_ID
			? { body: { access_token: 'act.tiktok', expires_in: 86400, open_id: 'open-1', refresh_token: 'rft.tiktok', refresh_expires_in: 31536000, scope: 'user.info.basic', token_type: 'Bearer' } }
			: { status: 400, body: { error: 'invalid_request', error_description: 'client_key is missing' } },
	'/tiktok/v2/user/info/': () => ({ body: { data: { user: { open_id: 'open-1', union_id: 'union-1', avatar_url: 'https://p16.tiktokcdn.com/a.jpeg', display_name: 'Tik Toker' } }, error: { code: 'ok', message: '', log_id: '1' } } }),
	// Reddit: HTTP Basic client authentication only.
	'/reddit/api/v1/access_token': (_origin, request) =>
		basicCredentials(request) === `${CLIENT_ID}:${CLIENT_SECRET}`
			? { body: { access_token: 'reddit-token', token_type: 'bearer', expires_in: 86400, scope: 'identity' } }
			: { status: 401, body: { message: 'Unauthorized', error: 401 } },
	'/reddit/api/v1/me': (_origin, request) =>
		request.headers['user-agent']?.includes('kitauth') ? { body: { id: '1w72', name: 'spez', icon_img: 'https://styles.redditmedia.com/i.png?a=1&amp;b=2' } } : { status: 429, body: {} },
	// Dropbox: the account is an RPC call (POST).
	'/dropbox/oauth2/token': () => ({ body: { access_token: 'sl.dropbox', token_type: 'bearer', expires_in: 14400, refresh_token: 'dropbox-refresh', account_id: 'dbid:AAH4', uid: '12345' } }),
	'/dropbox/2/users/get_current_account': (_origin, request) =>
		request.method === 'POST'
			? { body: { account_id: 'dbid:AAH4', name: { display_name: 'Franz Ferdinand' }, email: 'franz@acme.test', email_verified: true } }
			: { status: 405, body: { error: 'method not allowed' } }
});
afterAll(() => vendor.close());
beforeEach(() => void vendor.received.splice(0));

/** The preset, with its vendor's endpoints moved to the loopback host. */
function atVendor(provider: OAuthConfig, endpoints: { token: string; userinfo: string }): OAuthConfig {
	return {
		...provider,
		clientId: CLIENT_ID,
		clientSecret: CLIENT_SECRET,
		authorization: { ...(typeof provider.authorization === 'object' ? provider.authorization : {}), url: `${vendor.origin}/authorize` },
		token: `${vendor.origin}${endpoints.token}`,
		userinfo: typeof provider.userinfo === 'object' ? { ...provider.userinfo, url: `${vendor.origin}${endpoints.userinfo}` } : `${vendor.origin}${endpoints.userinfo}`
	};
}

/** Sign-in up to the callback: start it, then come back with a code and kitauth's state. */
async function signIn(provider: OAuthConfig) {
	// Auth.js's default session: what these vendors' profiles make of it.
	const app = oauthApp([provider], { callbacks: { session: undefined } });
	const browser = app.browser();
	const { url } = await startSignIn(browser, provider.id);
	const callback = new URL(callbackUri(provider.id));
	callback.searchParams.set('code', CODE);
	callback.searchParams.set('state', url.searchParams.get('state') ?? '');
	const res = await browser.get(callback.href);
	expect(res.headers.get('location'), explain(app.errors)).toBe(`${APP_ORIGIN}/`);
	return { session: (await browser.session()) as { user?: Record<string, unknown> } | null, authorizationUrl: url };
}

function tokenRequest(): ReceivedRequest | undefined {
	return vendor.received.find((request) => request.method === 'POST' && form(request).grant_type === 'authorization_code');
}

describe('quirky vendors, signed in through the real callback', () => {
	test("VK: the token response's missing token_type is supplied, the email taken from it, the secret sent in the body", async () => {
		const { session } = await signIn(atVendor(normalizedPreset(VK), { token: '/vk/access_token?v=5.131', userinfo: '/vk/method/users.get' }));
		expect(session?.user).toEqual({ name: 'Lindsey Stirling', email: 'lindsey@acme.test', image: 'https://sun1.userapi.com/a.jpg' });
		expect(form(tokenRequest())).toMatchObject({ code: CODE, client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
		expect(tokenRequest()?.query.get('v')).toBe('5.131');
	});

	test('TikTok: client_key in the authorization URL and in the token request', async () => {
		const { session, authorizationUrl } = await signIn(
			atVendor(normalizedPreset(TikTok, { clientId: CLIENT_ID }), { token: '/tiktok/v2/oauth/token/', userinfo: '/tiktok/v2/user/info/' })
		);
		expect(authorizationUrl.searchParams.get('client_key')).toBe(CLIENT_ID);
		expect(form(tokenRequest())).toMatchObject({ client_key: CLIENT_ID, client_secret: CLIENT_SECRET });
		expect(session?.user).toEqual({ name: 'Tik Toker', email: null, image: 'https://p16.tiktokcdn.com/a.jpeg' });
	});

	test('Reddit: Basic client authentication, a User-Agent on /api/v1/me, and the duration asked for', async () => {
		const { session, authorizationUrl } = await signIn(atVendor(normalizedPreset(Reddit), { token: '/reddit/api/v1/access_token', userinfo: '/reddit/api/v1/me' }));
		expect(authorizationUrl.searchParams.get('duration')).toBe('temporary');
		expect(form(tokenRequest())).not.toHaveProperty('client_secret');
		expect(session?.user).toEqual({ name: 'spez', email: null, image: 'https://styles.redditmedia.com/i.png?a=1&b=2' });
	});

	test('Dropbox: the account from a POST, and token_access_type=offline asked for', async () => {
		const { session, authorizationUrl } = await signIn(
			atVendor(normalizedPreset(Dropbox), { token: '/dropbox/oauth2/token', userinfo: '/dropbox/2/users/get_current_account' })
		);
		expect(authorizationUrl.searchParams.get('token_access_type')).toBe('offline');
		expect(session?.user).toEqual({ name: 'Franz Ferdinand', email: 'franz@acme.test', image: null });
	});
});

/** What the app's config holds when it lists the preset: the preset called, its options merged. */
function normalizedPreset(preset: (options?: Record<string, unknown>) => OAuthConfig, options: Record<string, unknown> = {}): OAuthConfig {
	const [provider] = normalizeProviders([preset(options)]);
	if (provider?.type !== 'oauth' && provider?.type !== 'oidc') throw new Error('not an OAuth preset');
	return provider;
}
