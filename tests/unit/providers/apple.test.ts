import { describe, expect, it } from 'vitest';
import Apple, { type AppleProfile } from '../../../src/lib/providers/apple.js';
import { normalized, paramsOf, resolve, scopeOf } from './helpers.js';

/** A Sign in with Apple ID token's payload, plus the `user` form field of the first consent. */
const ID_TOKEN_CLAIMS: AppleProfile = {
	iss: 'https://appleid.apple.com',
	aud: 'test.kitauth.web',
	exp: 1748986500,
	iat: 1748950500,
	sub: '001234.5a6b7c8d9e0f41a2b3c4d5e6f7a8b9c0.1234',
	nonce: 'n-0S6_WzA2Mj',
	c_hash: 'Yr8bH1cQ3g0l2k1m5n4o7w',
	email: 'x7k2m9p4q1@privaterelay.appleid.com',
	email_verified: true,
	is_private_email: true,
	auth_time: 1748950499,
	nonce_supported: true,
	real_user_status: 2,
	user: { name: { firstName: 'Jane', lastName: 'Appleseed' }, email: 'x7k2m9p4q1@privaterelay.appleid.com' }
};

describe('Apple preset', () => {
	it('is an OIDC provider on appleid.apple.com with form_post, name+email scope and secret in the body', () => {
		const apple = normalized(Apple());
		expect(apple).toMatchObject({ id: 'apple', name: 'Apple', type: 'oidc', issuer: 'https://appleid.apple.com' });
		expect(paramsOf(apple.authorization)).toEqual({ scope: 'name email', response_mode: 'form_post' });
		expect(apple.client?.token_endpoint_auth_method).toBe('client_secret_post');
		expect(apple.checks).toEqual(expect.arrayContaining(['pkce', 'state', 'nonce']));
		expect(apple.style).toEqual({ bg: '#000', text: '#fff' });
	});

	it('first sign-in: the name comes from the posted `user`; no image', async () => {
		expect(await Apple().profile?.(ID_TOKEN_CLAIMS, {})).toEqual({
			id: '001234.5a6b7c8d9e0f41a2b3c4d5e6f7a8b9c0.1234',
			name: 'Jane Appleseed',
			email: 'x7k2m9p4q1@privaterelay.appleid.com',
			image: null
		});
	});

	it('later sign-ins (no `user`): the name falls back to the email, as in Auth.js', async () => {
		const { user: _user, ...claims } = ID_TOKEN_CLAIMS;
		expect((await Apple().profile?.(claims, {}))?.name).toBe('x7k2m9p4q1@privaterelay.appleid.com');
		const onlyFirst = { ...ID_TOKEN_CLAIMS, user: { name: { firstName: 'Jane' } } };
		expect((await Apple().profile?.(onlyFirst, {}))?.name).toBe('Jane');
	});

	it('app options win: scope, client auth, id; response_mode stays', () => {
		const apple = normalized(
			Apple({
				id: 'apple-ios',
				authorization: { params: { scope: 'email' } },
				client: { token_endpoint_auth_method: 'client_secret_basic' }
			})
		);
		expect(apple.id).toBe('apple-ios');
		expect(scopeOf(apple)).toBe('email');
		expect(paramsOf(apple.authorization)?.response_mode).toBe('form_post');
		expect(apple.client?.token_endpoint_auth_method).toBe('client_secret_basic');
	});

	it('env inference: AUTH_APPLE_ID/_SECRET; explicit options beat env', () => {
		const env = { AUTH_APPLE_ID: 'test.kitauth.web', AUTH_APPLE_SECRET: 'eyJhbGciOiJFUzI1NiJ9.env' };
		const [fromEnv] = resolve(env, Apple);
		expect(fromEnv).toMatchObject({ clientId: 'test.kitauth.web', clientSecret: 'eyJhbGciOiJFUzI1NiJ9.env', issuer: 'https://appleid.apple.com' });
		const [explicit] = resolve(env, Apple({ clientSecret: 'eyJhbGciOiJFUzI1NiJ9.explicit' }));
		expect(explicit).toMatchObject({ clientId: 'test.kitauth.web', clientSecret: 'eyJhbGciOiJFUzI1NiJ9.explicit' });
	});
});
