import { describe, expect, it } from 'vitest';
import Auth0, { type Auth0Profile } from '../../../src/lib/providers/auth0.js';
import { mappedUser, normalized, resolve, scopeOf } from './helpers.js';

const ISSUER = 'https://acme.eu.auth0.com/';

/** An Auth0 ID token's payload for a database-connection user (`openid profile email`). */
const ID_TOKEN_CLAIMS: Auth0Profile = {
	given_name: 'Grace',
	family_name: 'Hopper',
	nickname: 'grace',
	name: 'Grace Hopper',
	picture: 'https://s.gravatar.com/avatar/3b3be63a4c2a439b013787725dfce802?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fgh.png',
	updated_at: '2025-06-03T10:15:22.813Z',
	email: 'grace@acme.test',
	email_verified: true,
	iss: ISSUER,
	aud: 'Xk3gPZt1bLr0wq8N2mVj7cYh5dEf9sAa',
	sub: 'auth0|6650b1f3c2a9e8d7f4b3a201',
	iat: 1748950500,
	exp: 1748986500,
	sid: 'pd7WnQ2mZr3xV8kL',
	nonce: 'n-0S6_WzA2Mj'
};

describe('Auth0 preset', () => {
	it('is an OIDC provider whose issuer (the tenant) comes from the app', () => {
		const auth0 = normalized(Auth0({ issuer: ISSUER }));
		expect(auth0).toMatchObject({ id: 'auth0', name: 'Auth0', type: 'oidc', issuer: ISSUER });
		expect(scopeOf(auth0)).toBe('openid profile email');
		expect(auth0.style).toEqual({ bg: '#EB5424', text: '#fff' });
	});

	it('maps the ID token claims with the default mapping (no profile() of its own)', async () => {
		expect(Auth0().profile).toBeUndefined();
		expect(await mappedUser(normalized(Auth0({ issuer: ISSUER })), ID_TOKEN_CLAIMS)).toEqual({
			id: 'auth0|6650b1f3c2a9e8d7f4b3a201',
			name: 'Grace Hopper',
			email: 'grace@acme.test',
			image: ID_TOKEN_CLAIMS.picture
		});
	});

	it('app options win: an API audience param merges with the default scope; custom profile', async () => {
		const auth0 = normalized(
			Auth0({
				issuer: ISSUER,
				authorization: { params: { audience: 'https://api.acme.test' } },
				profile: (claims) => ({ id: claims.sub, name: claims.nickname ?? null })
			})
		);
		expect(scopeOf(auth0)).toBe('openid profile email');
		expect(typeof auth0.authorization === 'object' && auth0.authorization.params?.audience).toBe('https://api.acme.test');
		expect(await auth0.profile?.(ID_TOKEN_CLAIMS, {})).toEqual({ id: 'auth0|6650b1f3c2a9e8d7f4b3a201', name: 'grace' });
	});

	it('env inference: AUTH_AUTH0_ID/_SECRET/_ISSUER; explicit options beat env', () => {
		const env = { AUTH_AUTH0_ID: 'env-client', AUTH_AUTH0_SECRET: 'env-secret', AUTH_AUTH0_ISSUER: ISSUER };
		const [fromEnv] = resolve(env, Auth0);
		expect(fromEnv).toMatchObject({ id: 'auth0', clientId: 'env-client', clientSecret: 'env-secret', issuer: ISSUER });
		const [explicit] = resolve(env, Auth0({ clientId: 'explicit-client', issuer: 'https://login.acme.test/' }));
		expect(explicit).toMatchObject({ clientId: 'explicit-client', clientSecret: 'env-secret', issuer: 'https://login.acme.test/' });
	});
});
