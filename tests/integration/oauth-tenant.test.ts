/**
 * Multi-tenant issuers, as Microsoft Entra ID's `common` endpoint serves them: discovery names the
 * template `…/{tenantid}/v2.0`, and every ID token carries its own tenant's issuer (`tid` claim,
 * `iss = …/<tid>/v2.0`). The real `MicrosoftEntraID` preset is pointed at the rogue OP in its
 * multi-tenant mode; the sign-in and a refresh must succeed, and a token whose `iss` names another
 * tenant than its `tid`, or that is not signed by the server's key, must be refused.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import MicrosoftEntraID from '../../src/lib/providers/microsoft-entra-id.js';
import OIDC from '../../src/lib/providers/oidc.js';
import { ROGUE_CLIENT_ID, ROGUE_CLIENT_SECRET, startRogueIdp, type RogueIdp } from '../support/rogue-idp.js';
import {
	APP_ORIGIN,
	callbackUri,
	errorPageError,
	expectRefused,
	explain,
	oauthApp,
	oauthSignIn,
	sessionClaims,
	signInPageError
} from '../support/oauth-app.js';

const TENANT = '9122040d-6c67-4c5b-b112-36a304b66dad';
const OTHER_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const ENTRA = 'microsoft-entra-id';

let rogue: RogueIdp;

beforeAll(async () => {
	rogue = await startRogueIdp({ tenant: TENANT, redirectUris: [callbackUri(ENTRA), callbackUri('plain-oidc')] });
});
afterAll(() => rogue.close());
beforeEach(() => {
	rogue.reset();
	rogue.resetCounts();
});
afterEach(() => {
	vi.useRealTimers();
});

const viaRogue = (url: URL) => rogue.completeInteraction(url);
const common = () => `${rogue.issuer}/common/v2.0`;
const entra = () => MicrosoftEntraID({ issuer: common(), clientId: ROGUE_CLIENT_ID, clientSecret: ROGUE_CLIENT_SECRET });

describe('Microsoft Entra ID on the multi-tenant endpoint', () => {
	test('the discovery document names a {tenantid} template and the ID token its tenant issuer: signed in', async () => {
		const metadata = (await (await fetch(`${common()}/.well-known/openid-configuration`)).json()) as { issuer: string };
		expect(metadata.issuer).toBe(`${rogue.issuer}/{tenantid}/v2.0`);
		rogue.resetCounts();

		const app = oauthApp([entra()]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, ENTRA, viaRogue);
		expect(res.headers.get('location'), explain(app.errors)).toBe(`${APP_ORIGIN}/`);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test', name: 'Alice Liddell' } });
		expect(rogue.counts()).toMatchObject({ discovery: 1, token: 1 });
	});

	test('an ID token whose iss names another tenant than its tid is refused: no session, no userinfo', async () => {
		rogue.behaviour.issuerTenant = OTHER_TENANT;
		const app = oauthApp([entra()]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, ENTRA, viaRogue);
		await expectRefused(browser, res, signInPageError('OAuthCallbackError'));
		expect(rogue.counts()).toMatchObject({ token: 1, userinfo: 0 });
		expect(explain(app.errors)).toMatch(/iss/);
	});

	test('the tenant issuer does not replace the signature check: a token signed by another key is refused', async () => {
		const app = oauthApp([entra()]);
		const browser = app.browser();
		rogue.nextTokenResponse('bad-signature');
		const { res } = await oauthSignIn(browser, ENTRA, viaRogue);
		await expectRefused(browser, res, signInPageError('OAuthCallbackError'));
	});

	test('a refresh whose ID token carries the tenant issuer is accepted', async () => {
		const app = oauthApp([entra()]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, ENTRA, viaRogue);
		expect(res.status).toBe(302);
		const before = (await sessionClaims(browser))?.oauth as { access_token?: string } | undefined;
		rogue.resetCounts();
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
		const session = await browser.session();
		expect(session, explain(app.errors)).not.toHaveProperty('error');
		expect(rogue.counts().token).toBe(1);
		const after = (await sessionClaims(browser))?.oauth as { access_token?: string } | undefined;
		expect(after?.access_token).not.toBe(before?.access_token);
	});
});

test('a provider without an issuerTemplate refuses a templated discovery document (no silent acceptance)', async () => {
	const app = oauthApp([OIDC({ id: 'plain-oidc', name: 'Plain', issuer: common(), clientId: ROGUE_CLIENT_ID, clientSecret: ROGUE_CLIENT_SECRET })]);
	const res = await app.browser().postForm('signin/plain-oidc');
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).toBe(errorPageError('OAuthSignin'));
	expect(rogue.counts()).toMatchObject({ discovery: 1, authorization: 0, token: 0 });
});
