import { describe, expect, it } from 'vitest';
import Google, { type GoogleProfile } from '../../../src/lib/providers/google.js';
import { mappedUser, normalized, paramsOf, resolve, scopeOf } from './helpers.js';

/** A Google ID token's payload (claims as Google documents them). */
const ID_TOKEN_CLAIMS: GoogleProfile = {
	iss: 'https://accounts.google.com',
	azp: '1234987819200-okf9uj3dl9q6hn2ub28j2s3fe4pjbrvd.apps.googleusercontent.com',
	aud: '1234987819200-okf9uj3dl9q6hn2ub28j2s3fe4pjbrvd.apps.googleusercontent.com',
	sub: '110169484474386276334',
	hd: 'acme.test',
	email: 'jane.smith@acme.test',
	email_verified: true,
	at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q',
	nonce: 'n-0S6_WzA2Mj',
	name: 'Jane Smith',
	picture: 'https://lh3.googleusercontent.com/a/ACg8ocJ3ZbXl8pd2Y4MmUq1zvU9cqkL=s96-c',
	given_name: 'Jane',
	family_name: 'Smith',
	iat: 1748947200,
	exp: 1748950800
};

describe('Google preset', () => {
	it('is an OIDC provider discovered from accounts.google.com', () => {
		const google = normalized(Google());
		expect(google).toMatchObject({ id: 'google', name: 'Google', type: 'oidc', issuer: 'https://accounts.google.com' });
		expect(scopeOf(google)).toBe('openid profile email');
		// Discovery gives the endpoints: none is hard-coded.
		expect(google.token).toBeUndefined();
		expect(google.userinfo).toBeUndefined();
		expect(google.style?.bg).toBeTruthy();
		expect(google.style?.logo).toBeUndefined();
	});

	it('maps the ID token claims to the user with the default mapping (no profile() of its own)', async () => {
		expect(Google().profile).toBeUndefined();
		expect(await mappedUser(normalized(Google()), ID_TOKEN_CLAIMS, { id_token: 'eyJ…' })).toEqual({
			id: '110169484474386276334',
			name: 'Jane Smith',
			email: 'jane.smith@acme.test',
			image: 'https://lh3.googleusercontent.com/a/ACg8ocJ3ZbXl8pd2Y4MmUq1zvU9cqkL=s96-c'
		});
	});

	it('app options win: offline access params merge with the default scope; custom profile and id', async () => {
		const google = normalized(
			Google({
				id: 'google-workspace',
				authorization: { params: { access_type: 'offline', prompt: 'consent', hd: 'acme.test' } },
				profile: (claims) => ({ id: claims.sub, email: claims.email, name: claims.hd ?? null })
			})
		);
		expect(google.id).toBe('google-workspace');
		expect(paramsOf(google.authorization)).toEqual({
			scope: 'openid profile email',
			access_type: 'offline',
			prompt: 'consent',
			hd: 'acme.test'
		});
		expect(await google.profile?.(ID_TOKEN_CLAIMS, {})).toEqual({
			id: '110169484474386276334',
			email: 'jane.smith@acme.test',
			name: 'acme.test'
		});
		expect(scopeOf(normalized(Google({ authorization: { params: { scope: 'openid email' } } })))).toBe('openid email');
	});

	it('env inference: AUTH_GOOGLE_ID/_SECRET; explicit options beat env', () => {
		const env = { AUTH_GOOGLE_ID: 'env.apps.googleusercontent.com', AUTH_GOOGLE_SECRET: 'GOCSPX-env' };
		const [fromEnv] = resolve(env, Google);
		expect(fromEnv).toMatchObject({
			id: 'google',
			clientId: 'env.apps.googleusercontent.com',
			clientSecret: 'GOCSPX-env',
			issuer: 'https://accounts.google.com'
		});
		const [explicit] = resolve(env, Google({ clientSecret: 'GOCSPX-explicit' }));
		expect(explicit).toMatchObject({ clientId: 'env.apps.googleusercontent.com', clientSecret: 'GOCSPX-explicit' });
	});
});
