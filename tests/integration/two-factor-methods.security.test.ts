/**
 * The second factor is asked after every first factor, not only passwords (peer-advisories.md,
 * class 10: "2FA not enforced on alternative sign-in methods"): an email link, an emailed code, an
 * OpenID Provider (a real oidc-provider) and a passkey that did not verify its user each stop at
 * the challenge with no session; a passkey that verified its user is two factors and signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Nodemailer from '../../src/lib/providers/nodemailer.js';
import WebAuthn from '../../src/lib/providers/webauthn.js';
import { callbackUri, localProvider } from '../support/oauth-app.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { startSmtp, type TestMailbox } from '../support/smtp.js';
import { totpCode } from '../support/totp.js';
import type { TestClient } from '../support/client.js';
import { FROM, followLink, hiddenFields, lastMessageTo, PROVIDER, requestLink } from './email-fixtures.js';
import { expectNoSessionGranted, location, ORIGIN } from './fixtures.js';
import { authenticate, authenticator, register, STRATEGIES } from './passkey-fixtures.js';
import { challenge, enableTotp, expectChallenge, twoFactorWorld } from './two-factor-fixtures.js';

let idp: TestIdp;
let mailbox: TestMailbox;
beforeAll(async () => {
	[idp, mailbox] = await Promise.all([startTestIdp({ redirectUris: [callbackUri('local', ORIGIN)] }), startSmtp()]);
});
afterAll(async () => {
	await Promise.all([idp.close(), mailbox.close()]);
});

function world(strategy: (typeof STRATEGIES)[number]) {
	return twoFactorWorld(strategy, {}, {
		providers: [
			Nodemailer({ server: mailbox.url, from: FROM, timeout: 3000, code: true }),
			localProvider(idp),
			// User verification preferred, not required: an authenticator without it still signs in, as one factor.
			WebAuthn({ id: 'passkey', verifyAuthenticationOptions: { requireUserVerification: false } })
		]
	});
}

/** The last message to `email` (the suite's one mailbox). */
function mail(email: string) {
	return lastMessageTo({ mailbox } as Parameters<typeof lastMessageTo>[0], email);
}

async function signOut(client: TestClient): Promise<void> {
	await client.postForm('signout');
	expect(await client.session()).toBeNull();
}

async function viaIdp(client: TestClient): Promise<Response> {
	const start = await client.postForm('signin/local', { callbackUrl: `${ORIGIN}/account` });
	const back = await idp.completeInteraction(new URL(start.headers.get('location')!), { login: 'alice' });
	return client.get(back.href);
}

describe.each(STRATEGIES)('the second factor after every first factor, on %s sessions', (strategy) => {
	it('an email link and an emailed code stop at the challenge, then TOTP signs in', async () => {
		const w = await world(strategy);
		const email = `ann-${strategy}@example.com`;
		const client = w.client();
		await requestLink(client, email);
		expect(location((await followLink(client, mail(email).link)).signIn).pathname).not.toBe('/auth/two-factor');
		const { secret } = await enableTotp(client);
		await signOut(client);

		await requestLink(client, email);
		const { signIn } = await followLink(client, mail(email).link);
		await expectChallenge(signIn, client);
		expect((await challenge(client, totpCode(secret, 1))).status).toBe(302);
		expect(await client.session()).toMatchObject({ factors: ['email', 'totp'] });

		const other = w.client();
		await requestLink(other, email);
		const { code } = mail(email);
		const page = await other.get('verify-request', { query: { provider: PROVIDER, type: 'email' } });
		const byCode = await other.post(`callback/${PROVIDER}`, { form: { csrfToken: hiddenFields(await page.text()).csrfToken!, code: code! } });
		await expectChallenge(byCode, other);
	});

	it('an OpenID Provider sign-in stops at the challenge', async () => {
		const w = await world(strategy);
		const client = w.client();
		expect(location(await viaIdp(client)).pathname).toBe('/account');
		const { secret } = await enableTotp(client);
		await signOut(client);
		const again = await viaIdp(client);
		await expectChallenge(again, client);
		// The IdP's answer replayed (same URL, same browser) is no way around it either.
		expect((await challenge(client, totpCode(secret, 1))).status).toBe(302);
		expect(await client.session()).toMatchObject({ factors: ['oidc', 'totp'] });
	});

	it('a passkey without user verification stops at the challenge; one with it is two factors', async () => {
		const w = await world(strategy);
		const client = w.client();
		const key = authenticator();
		const signedUp = await register(client, key, { email: `pat-${strategy}@example.com` });
		expect(location(signedUp).pathname).toBe('/account');
		expect(await client.session()).toMatchObject({ factors: ['webauthn', 'user-verification'] });
		await enableTotp(client);
		await signOut(client);

		await expectChallenge(await authenticate(client, key, { uv: false }), client);
		await expectNoSessionGranted(await client.postForm('two-factor', { code: '' }));
		const other = w.client();
		const verified = await authenticate(other, key, { uv: true });
		expect(location(verified).pathname).toBe('/account');
		expect(await other.session()).toMatchObject({ factors: ['webauthn', 'user-verification'] });
	});
});
