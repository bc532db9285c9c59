/**
 * Issuer templates (multi-tenant servers): which discovered templates a configured issuer accepts,
 * and which tenant claims may fill one. The tenant claim comes from an ID token not yet verified,
 * so anything but a GUID is refused before it is spliced into a URL.
 */
import { describe, expect, it } from 'vitest';
import type * as o from 'oauth4webapi';
import { expectedIssuer, serverForIdToken } from '../../src/lib/core/flows/oauth/issuer-template.js';
import type { OAuthConfig } from '../../src/lib/core/types.js';

const TENANT = '9122040d-6c67-4c5b-b112-36a304b66dad';
const TEMPLATE = 'https://login.microsoftonline.com/{tenantid}/v2.0';
const templated: OAuthConfig = { id: 'entra', name: 'Entra', type: 'oidc', issuerTemplate: { placeholder: '{tenantid}', claim: 'tid' } };
const plain: OAuthConfig = { id: 'plain', name: 'Plain', type: 'oidc' };
const server: o.AuthorizationServer = { issuer: TEMPLATE, jwks_uri: 'https://login.microsoftonline.com/common/discovery/v2.0/keys' };

const discovery = (issuer: string) => Response.json({ issuer });

describe('expectedIssuer', () => {
	it.each(['common', 'organizations'])('accepts the template for the configured …/%s/v2.0', async (segment) => {
		const expected = await expectedIssuer(templated, `https://login.microsoftonline.com/${segment}/v2.0`, discovery(TEMPLATE));
		expect(expected.href).toBe(new URL(TEMPLATE).href);
	});

	it.each([
		['another host', 'https://login.evil.example/{tenantid}/v2.0'],
		['another path', 'https://login.microsoftonline.com/{tenantid}/v1.0'],
		['two placeholders', 'https://login.microsoftonline.com/{tenantid}/{tenantid}/v2.0'],
		['a placeholder in the scheme', '{tenantid}://login.microsoftonline.com/common/v2.0']
	])('keeps the configured issuer (so discovery fails) for a template on %s', async (_, template) => {
		const configured = 'https://login.microsoftonline.com/common/v2.0';
		expect((await expectedIssuer(templated, configured, discovery(template))).href).toBe(configured);
	});

	it('a provider without issuerTemplate never accepts a template', async () => {
		const configured = 'https://login.microsoftonline.com/common/v2.0';
		expect((await expectedIssuer(plain, configured, discovery(TEMPLATE))).href).toBe(configured);
	});

	it('leaves the response unread for oauth4webapi', async () => {
		const response = discovery(TEMPLATE);
		await expectedIssuer(templated, 'https://login.microsoftonline.com/common/v2.0', response);
		expect(response.bodyUsed).toBe(false);
	});
});

describe('serverForIdToken', () => {
	it('fills the template with a GUID tid, keeping the JWKS', () => {
		expect(serverForIdToken(templated, server, { tid: TENANT })).toEqual({
			...server,
			issuer: `https://login.microsoftonline.com/${TENANT}/v2.0`
		});
	});

	it.each([
		['missing', undefined],
		['not a string', 42],
		['a path', '../../evil.example'],
		['a URL', 'https://evil.example'],
		['a name', 'common'],
		['a GUID with more', `${TENANT}/v2.0/x`]
	])('refuses a tid that is %s', (_, tid) => {
		expect(() => serverForIdToken(templated, server, { tid })).toThrow(/tid/);
	});

	it('changes nothing for a server with a real issuer, or a provider without a template', () => {
		const real = { ...server, issuer: `https://login.microsoftonline.com/${TENANT}/v2.0` };
		expect(serverForIdToken(templated, real, { tid: 'anything' })).toBe(real);
		expect(serverForIdToken(plain, server, { tid: TENANT })).toBe(server);
		expect(serverForIdToken(templated, server, undefined)).toBe(server);
	});
});
