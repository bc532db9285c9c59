import { describe, expect, it } from 'vitest';
import WorkOS, { type WorkOSProfile } from '../../../src/lib/providers/workos.js';
import { defaultUser, mappedUser, normalized, paramsOf, resolve, urlOf } from './helpers.js';

/** `GET /sso/profile`. */
const PROFILE: WorkOSProfile = {
	object: 'profile',
	id: 'prof_01DMC79VCBZ0NY2099737PSVF1',
	connection_id: 'conn_01E4ZCR3C56J083X43JQXF3JK5',
	connection_type: 'OktaSAML',
	organization_id: 'org_01EHWNCE74X7JSDV0X3SZ3KJNY',
	email: 'todd@example.com',
	first_name: 'Todd',
	last_name: 'Rundgren',
	idp_id: '00u1a0ufowBJlzPlk357',
	role: { slug: 'admin' },
	raw_attributes: { picture: 'https://idp.example.com/photos/todd.png' }
};

describe('WorkOS preset', () => {
	it('is an OAuth 2 provider on api.workos.com, the API key in the body', () => {
		const workos = normalized(WorkOS());
		expect(workos).toMatchObject({ id: 'workos', name: 'WorkOS', type: 'oauth' });
		expect(urlOf(workos.authorization)).toBe('https://api.workos.com/sso/authorize');
		expect(paramsOf(workos.authorization)).toEqual({});
		expect(urlOf(workos.token)).toBe('https://api.workos.com/sso/token');
		expect(workos.client).toEqual({ token_endpoint_auth_method: 'client_secret_post' });
		expect(workos.userinfo).toBe('https://api.workos.com/sso/profile');
		// The API base is no OpenID issuer: nothing is discovered from it.
		expect(workos.issuer).toBeUndefined();
	});

	it('a connection goes on the authorization request; another API base moves every endpoint', () => {
		const workos = normalized(WorkOS({ connection: 'conn_01E4ZCR3C56J083X43JQXF3JK5', issuer: 'https://auth.acme.test' }));
		expect(paramsOf(workos.authorization)).toEqual({ connection: 'conn_01E4ZCR3C56J083X43JQXF3JK5' });
		expect(urlOf(workos.authorization)).toBe('https://auth.acme.test/sso/authorize');
		expect(urlOf(workos.token)).toBe('https://auth.acme.test/sso/token');
		expect(workos.userinfo).toBe('https://auth.acme.test/sso/profile');
		expect(workos).not.toHaveProperty('connection');
	});

	it('AUTH_WORKOS_ISSUER moves the endpoints too', () => {
		const [workos] = resolve({ AUTH_WORKOS_ID: 'client_01', AUTH_WORKOS_SECRET: 'sk_test', AUTH_WORKOS_ISSUER: 'https://auth.acme.test/' }, WorkOS);
		expect(urlOf(workos?.token)).toBe('https://auth.acme.test/sso/token');
	});

	it('maps the profile: first and last name, the picture among the raw attributes', async () => {
		expect(await mappedUser(normalized(WorkOS()), PROFILE)).toEqual({
			id: 'prof_01DMC79VCBZ0NY2099737PSVF1',
			name: 'Todd Rundgren',
			email: 'todd@example.com',
			image: 'https://idp.example.com/photos/todd.png'
		});
		expect(await defaultUser(PROFILE)).toMatchObject({ name: null, image: null });
	});
});
