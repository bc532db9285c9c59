/**
 * Pre-registration takeover (peer-advisories.md, class 1; CVE-2026-53516): a passkey sign-up
 * creates a user with an address nobody verified. When the address's real owner later signs in
 * with an OAuth provider that allows dangerous email linking, that account must not join the
 * squatter's user (whose passkey would then open the owner's account). Real OpenID Provider,
 * real store, genuine passkey responses.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import Passkey from '../../src/lib/providers/passkey.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { APP_ORIGIN, callbackUri, localProvider, oauthApp, oauthSignIn, signInPageError } from '../support/oauth-app.js';
import { SoftAuthenticator } from '../support/webauthn-authenticator.js';
import { openStore } from './database-fixtures.js';
import { register } from './passkey-fixtures.js';

let idp: TestIdp;
beforeAll(async () => {
	idp = await startTestIdp({ redirectUris: [callbackUri('local')] });
});
afterAll(async () => {
	await idp.close();
});

test('an unverified passkey sign-up with the victim address is not joined by the victim’s OAuth account', async () => {
	const store = await openStore('memory');
	try {
		const app = oauthApp([localProvider(idp, { allowDangerousEmailAccountLinking: true }), Passkey], {
			adapter: store.adapter,
			experimental: { enableWebAuthn: true }
		});
		// The squatter signs up first, with alice's address, and a passkey of their own.
		const squatter = app.browser();
		const squattersKey = new SoftAuthenticator(APP_ORIGIN);
		expect((await register(squatter, squattersKey, { email: 'alice@example.test' })).status).toBe(302);
		const [squatted] = await store.users();
		expect(squatted?.emailVerified).toBeNull();

		// Alice signs in with her IdP (which verified her address): refused, not linked.
		const alice = app.browser();
		const { res } = await oauthSignIn(alice, 'local', (url) => idp.completeInteraction(url, { login: 'alice' }));
		expect(res.headers.get('location')).toBe(signInPageError('OAuthAccountNotLinked'));
		expect(await (await alice.get('session')).json()).toBeNull();
		const { rows } = await store.db.execute("SELECT provider FROM account WHERE provider = 'local'");
		expect(rows).toEqual([]);
	} finally {
		store.close();
	}
});
