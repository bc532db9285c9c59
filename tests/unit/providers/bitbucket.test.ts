import { afterAll, describe, expect, it } from 'vitest';
import Bitbucket, { type BitbucketProfile } from '../../../src/lib/providers/bitbucket.js';
import { defaultUser, mappedUser, normalized, requestProfile, scopeOf, serveJson, urlOf } from './helpers.js';

/** `GET /2.0/user`. */
const USER = {
	display_name: 'Tutu Tester',
	links: {
		self: { href: 'https://api.bitbucket.org/2.0/users/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D' },
		avatar: { href: 'https://secure.gravatar.com/avatar/5b2c.png?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTT-0.png' },
		html: { href: 'https://bitbucket.org/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D/' }
	},
	created_on: '2018-11-14T13:22:04.521451+00:00',
	type: 'user' as const,
	uuid: '{d301aafa-d676-4ee0-88be-962be7417567}',
	has_2fa_enabled: null,
	username: 'tutu-tester',
	is_staff: false,
	account_id: '5b2c3f44a3c7d41c1b9a1f12',
	nickname: 'Tutu',
	account_status: 'active',
	location: null
};

/** `GET /2.0/user/emails` (a page). */
const EMAILS = {
	values: [
		{ is_primary: false, is_confirmed: true, type: 'email', email: 'old@acme.test', links: {} },
		{ is_primary: true, is_confirmed: true, type: 'email', email: 'tutu@acme.test', links: {} }
	],
	pagelen: 10,
	size: 2,
	page: 1
};
const UNCONFIRMED = { ...EMAILS, values: [{ is_primary: true, is_confirmed: false, type: 'email', email: 'new@acme.test' }] };

const TOKENS = { access_token: 'bb-access-token', token_type: 'bearer' };

const server = await serveJson({
	'/2.0/user': () => ({ body: USER }),
	'/2.0/user/emails': () => ({ body: EMAILS }),
	'/unconfirmed/2.0/user': () => ({ body: USER }),
	'/unconfirmed/2.0/user/emails': () => ({ body: UNCONFIRMED }),
	'/noscope/2.0/user': () => ({ body: USER }),
	'/noscope/2.0/user/emails': () => ({ status: 403, body: { type: 'error', error: { message: 'Access denied' } } })
});
afterAll(() => server.close());

const fetchProfile = (prefix: string) => requestProfile(normalized(Bitbucket({ userinfo: { url: `${server.origin}${prefix}/2.0/user` } })), TOKENS);

describe('Bitbucket preset', () => {
	it('is an OAuth 2 provider asking for the account and its email', () => {
		const bitbucket = normalized(Bitbucket());
		expect(bitbucket).toMatchObject({ id: 'bitbucket', name: 'Bitbucket', type: 'oauth' });
		expect(urlOf(bitbucket.authorization)).toBe('https://bitbucket.org/site/oauth2/authorize');
		expect(scopeOf(bitbucket)).toBe('account email');
		expect(urlOf(bitbucket.token)).toBe('https://bitbucket.org/site/oauth2/access_token');
		expect(urlOf(bitbucket.userinfo)).toBe('https://api.bitbucket.org/2.0/user');
	});

	it('fetches /2.0/user and the primary confirmed address of /2.0/user/emails, with the bearer token', async () => {
		const profile = await fetchProfile('');
		expect(server.requests.slice(-2)).toEqual([
			{ path: '/2.0/user', authorization: `Bearer ${TOKENS.access_token}` },
			{ path: '/2.0/user/emails', authorization: `Bearer ${TOKENS.access_token}` }
		]);
		expect(profile).toEqual({ ...USER, email: 'tutu@acme.test' });
	});

	it('an unconfirmed primary address, or none readable, gives no email', async () => {
		expect((await fetchProfile('/unconfirmed')).email).toBeNull();
		expect((await fetchProfile('/noscope')).email).toBeNull();
	});

	it('maps the user: account_id (as Auth.js), display name, avatar', async () => {
		const profile: BitbucketProfile = { ...USER, email: 'tutu@acme.test' };
		expect(await mappedUser(normalized(Bitbucket()), profile)).toEqual({
			id: '5b2c3f44a3c7d41c1b9a1f12',
			name: 'Tutu Tester',
			email: 'tutu@acme.test',
			image: USER.links.avatar.href
		});
		await expect(defaultUser(profile)).rejects.toThrow(/without an id/);
	});
});
