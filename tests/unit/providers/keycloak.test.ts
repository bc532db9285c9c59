import { describe, expect, it } from 'vitest';
import Keycloak, { type KeycloakProfile } from '../../../src/lib/providers/keycloak.js';
import { normalized, resolve, scopeOf } from './helpers.js';

const ISSUER = 'https://sso.acme.test/realms/acme';

/** A Keycloak 26 ID token's payload (client scopes `profile` and `email`). */
const ID_TOKEN_CLAIMS: KeycloakProfile = {
	exp: 1748950800,
	iat: 1748950500,
	auth_time: 1748950499,
	jti: 'ofrtna:3f0a4c2e-5d0b-4b44-a0b8-8f0d5d4a7d21',
	iss: ISSUER,
	aud: 'kitauth-demo',
	sub: 'f2b9d3c5-8a41-4c9e-9d7b-2a1e6c0f4b11',
	typ: 'ID',
	azp: 'kitauth-demo',
	nonce: 'n-0S6_WzA2Mj',
	sid: '7c1f54a2-2f3e-4e0b-93a1-4d5c6b7a8e90',
	at_hash: 'x7xJ7Qw1b4aTg0Jq0j4bAA',
	acr: '1',
	email_verified: true,
	name: 'Ada Lovelace',
	preferred_username: 'ada',
	given_name: 'Ada',
	family_name: 'Lovelace',
	email: 'ada@acme.test'
};

describe('Keycloak preset', () => {
	it('is an OIDC provider whose issuer (the realm) comes from the app', () => {
		const keycloak = normalized(Keycloak({ issuer: ISSUER }));
		expect(keycloak).toMatchObject({ id: 'keycloak', name: 'Keycloak', type: 'oidc', issuer: ISSUER });
		expect(scopeOf(keycloak)).toBe('openid profile email');
		expect(keycloak.style).toEqual({ bg: '#428bca', text: '#fff' });
	});

	it('maps the ID token claims; a user without first/last name is named by username', async () => {
		expect(await Keycloak().profile?.(ID_TOKEN_CLAIMS, {})).toEqual({
			id: 'f2b9d3c5-8a41-4c9e-9d7b-2a1e6c0f4b11',
			name: 'Ada Lovelace',
			email: 'ada@acme.test',
			image: null
		});
		const { name: _name, given_name: _given, family_name: _family, ...unnamed } = ID_TOKEN_CLAIMS;
		expect((await Keycloak().profile?.(unnamed, {}))?.name).toBe('ada');
	});

	it('app options win: scope and id', () => {
		const keycloak = normalized(Keycloak({ id: 'staff-sso', issuer: ISSUER, authorization: { params: { scope: 'openid email roles' } } }));
		expect(keycloak.id).toBe('staff-sso');
		expect(scopeOf(keycloak)).toBe('openid email roles');
	});

	it('env inference: AUTH_KEYCLOAK_ID/_SECRET/_ISSUER; explicit options beat env', () => {
		const env = { AUTH_KEYCLOAK_ID: 'kitauth-demo', AUTH_KEYCLOAK_SECRET: 'env-secret', AUTH_KEYCLOAK_ISSUER: ISSUER };
		const [fromEnv] = resolve(env, Keycloak);
		expect(fromEnv).toMatchObject({ clientId: 'kitauth-demo', clientSecret: 'env-secret', issuer: ISSUER });
		const [explicit] = resolve(env, Keycloak({ issuer: 'https://sso.acme.test/realms/staff' }));
		expect(explicit).toMatchObject({ clientId: 'kitauth-demo', issuer: 'https://sso.acme.test/realms/staff' });
	});
});
