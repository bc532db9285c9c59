/**
 * The client secret of an OAuth/OIDC provider, against a real OpenID Provider (oidc-provider):
 * a secret from `AUTH_<ID>_SECRET` signs in; a secret the provider rejects fails the callback
 * with the provider's own `error` and `error_description` in the log — never the secret, never
 * the authorization code. (A missing one is refused at start-up: oauth-provider-config.test.ts.)
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatError } from '../../src/lib/core/logger.js';
import { startTestIdp, TEST_CLIENT_SECRET, type TestIdp } from '../support/oidc-provider.js';
import { callbackUri, expectRefused, explain, localProvider, oauthApp, oauthSignIn, signInPageError } from '../support/oauth-app.js';

let idp: TestIdp;
beforeAll(async () => {
	idp = await startTestIdp({ redirectUris: [callbackUri('local')] });
});
afterAll(() => idp.close());

const asAlice = (url: URL) => idp.completeInteraction(url, { login: 'alice' });

test('the secret from AUTH_LOCAL_SECRET signs in', async () => {
	const app = oauthApp([localProvider(idp, { clientSecret: undefined })], {}, undefined, { AUTH_LOCAL_SECRET: TEST_CLIENT_SECRET });
	const browser = app.browser();
	const { res } = await oauthSignIn(browser, 'local', asAlice);
	expect(res.status, explain(app.errors)).toBe(302);
	expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
});

test("a secret the provider rejects: the callback fails, and the log says what the provider said, without the secret or the code", async () => {
	const wrong = 'not-the-registered-secret-0123456789abcdef';
	const app = oauthApp([localProvider(idp, { clientSecret: wrong })]);
	const browser = app.browser();
	const { callback, res } = await oauthSignIn(browser, 'local', asAlice);
	await expectRefused(browser, res, signInPageError('OAuthCallbackError'));
	const code = callback.searchParams.get('code')!;
	expect(code.length).toBeGreaterThan(10);
	expect(app.errors).toHaveLength(1);
	const logged = formatError(app.errors[0]!);
	expect(logged).toContain('OAuthCallbackError');
	expect(logged).toMatch(/the provider answered 401 invalid_client \(client authentication failed\)/);
	expect(logged).not.toContain(wrong);
	expect(logged).not.toContain(code);
});
