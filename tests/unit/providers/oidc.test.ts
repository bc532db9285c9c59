import { describe, expect, it } from 'vitest';
import OIDC from '../../../src/lib/providers/oidc.js';
import { normalized, resolve, scopeOf } from './helpers.js';

describe('generic OIDC preset', () => {
	it('takes id, name and issuer from the app; type oidc; discovery, so no endpoints', () => {
		const acme = normalized(OIDC({ id: 'acme', name: 'Acme SSO', issuer: 'https://sso.acme.test' }));
		expect(acme).toMatchObject({ id: 'acme', name: 'Acme SSO', type: 'oidc', issuer: 'https://sso.acme.test' });
		expect(scopeOf(acme)).toBe('openid profile email');
		expect(acme.token).toBeUndefined();
		// No preset mapping: the flow's standard-claims default applies.
		expect(acme.profile).toBeUndefined();
	});

	it('app options win: scope and profile', async () => {
		const acme = normalized(
			OIDC<{ sub: string; upn: string }>({
				id: 'acme',
				name: 'Acme SSO',
				issuer: 'https://sso.acme.test',
				authorization: { params: { scope: 'openid email groups' } },
				profile: (claims) => ({ id: claims.sub, email: claims.upn })
			})
		);
		expect(scopeOf(acme)).toBe('openid email groups');
		expect(await acme.profile?.({ sub: 'u-1', upn: 'u1@acme.test' }, {})).toEqual({ id: 'u-1', email: 'u1@acme.test' });
	});

	it('env inference uses the app-chosen id: AUTH_ACME_SSO_ID/_SECRET; explicit options beat env', () => {
		const env = { AUTH_ACME_SSO_ID: 'env-client', AUTH_ACME_SSO_SECRET: 'env-secret', AUTH_ACME_SSO_ISSUER: 'https://env.acme.test' };
		const [provider] = resolve(env, OIDC({ id: 'acme-sso', name: 'Acme', issuer: 'https://sso.acme.test' }));
		expect(provider).toMatchObject({ clientId: 'env-client', clientSecret: 'env-secret', issuer: 'https://sso.acme.test' });
	});
});
