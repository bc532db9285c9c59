import { describe, expect, it } from 'vitest';
import MicrosoftEntraID, { type MicrosoftEntraIDProfile } from '../../../src/lib/providers/microsoft-entra-id.js';
import { normalized, resolve, scopeOf } from './helpers.js';

const TENANT = '9122040d-6c67-4c5b-b112-36a304b66dad';

/** A v2.0 ID token's payload for a work account. */
const ID_TOKEN_CLAIMS: MicrosoftEntraIDProfile = {
	ver: '2.0',
	iss: `https://login.microsoftonline.com/${TENANT}/v2.0`,
	sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
	aud: '6cb04018-a3f5-46a7-b995-940c78f5aef3',
	exp: 1748954100,
	iat: 1748950200,
	nbf: 1748950200,
	name: 'Megan Bowen',
	preferred_username: 'meganb@contoso.example',
	email: 'megan.bowen@contoso.example',
	oid: '00000000-0000-0000-66f3-3332eca7ea81',
	tid: TENANT,
	nonce: 'n-0S6_WzA2Mj',
	aio: 'Df2UVXL1ix!lMCWMSOJBcFatzcGfvFGhjKv8q5g0x732dR5MB5BisvGQO7YWByjd8iQDLq!eGbIDakyp5mnOrcdqHeYSnltepQmRp6AIZ8jY'
};

describe('Microsoft Entra ID preset', () => {
	it('is an OIDC provider on the multi-tenant `common` endpoint unless told otherwise', () => {
		const entra = normalized(MicrosoftEntraID());
		expect(entra).toMatchObject({
			id: 'microsoft-entra-id',
			name: 'Microsoft Entra ID',
			type: 'oidc',
			issuer: 'https://login.microsoftonline.com/common/v2.0'
		});
		expect(scopeOf(entra)).toBe('openid profile email User.Read');
		expect(entra.style).toEqual({ bg: '#0072c6', text: '#fff' });
		const single = normalized(MicrosoftEntraID({ issuer: `https://login.microsoftonline.com/${TENANT}/v2.0` }));
		expect(single.issuer).toBe(`https://login.microsoftonline.com/${TENANT}/v2.0`);
	});

	it('maps the ID token claims (sub, name, email; the photo is in Graph, not here)', async () => {
		expect(await MicrosoftEntraID().profile?.(ID_TOKEN_CLAIMS, {})).toEqual({
			id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
			name: 'Megan Bowen',
			email: 'megan.bowen@contoso.example',
			image: null
		});
		const { email: _email, ...noMailbox } = ID_TOKEN_CLAIMS;
		// The UPN is not a verified address: no email rather than a guess.
		expect((await MicrosoftEntraID().profile?.(noMailbox, {}))?.email).toBeNull();
	});

	it('declares the `{tenantid}` issuer template of multi-tenant discovery, filled from the `tid` claim', () => {
		expect(normalized(MicrosoftEntraID()).issuerTemplate).toEqual({ placeholder: '{tenantid}', claim: 'tid' });
	});

	it('an app fetch is used as it is (no wrapper)', () => {
		const appFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);
		expect(normalized(MicrosoftEntraID({ fetch: appFetch })).fetch).toBe(appFetch);
	});

	it('app options win: scope and id', () => {
		const entra = normalized(MicrosoftEntraID({ id: 'entra-staff', authorization: { params: { scope: 'openid profile email offline_access' } } }));
		expect(entra.id).toBe('entra-staff');
		expect(scopeOf(entra)).toBe('openid profile email offline_access');
	});

	it('env inference: AUTH_MICROSOFT_ENTRA_ID_ID/_SECRET/_ISSUER; explicit options beat env', () => {
		const issuer = `https://login.microsoftonline.com/${TENANT}/v2.0`;
		const env = {
			AUTH_MICROSOFT_ENTRA_ID_ID: '6cb04018-a3f5-46a7-b995-940c78f5aef3',
			AUTH_MICROSOFT_ENTRA_ID_SECRET: 'env~secret',
			AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer
		};
		const [fromEnv] = resolve(env, MicrosoftEntraID);
		expect(fromEnv).toMatchObject({ clientId: env.AUTH_MICROSOFT_ENTRA_ID_ID, clientSecret: 'env~secret', issuer });
		const [explicit] = resolve(env, MicrosoftEntraID({ issuer: 'https://login.microsoftonline.com/organizations/v2.0' }));
		expect(explicit).toMatchObject({ clientSecret: 'env~secret', issuer: 'https://login.microsoftonline.com/organizations/v2.0' });
	});
});
