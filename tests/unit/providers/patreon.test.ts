import { describe, expect, it } from 'vitest';
import Patreon, { type PatreonProfile } from '../../../src/lib/providers/patreon.js';
import { defaultUser, mappedUser, normalized, paramsOf, scopeOf, urlOf } from './helpers.js';

/** `GET /api/oauth2/v2/identity?fields[user]=…`: a JSON:API document. */
const IDENTITY: PatreonProfile = {
	data: {
		attributes: {
			email: 'creator@acme.test',
			is_email_verified: true,
			full_name: 'Corey Creator',
			image_url: 'https://c8.patreon.com/3/200/12345678'
		},
		id: '12345678',
		type: 'user'
	},
	links: { self: 'https://www.patreon.com/api/oauth2/v2/user/12345678' }
};

describe('Patreon preset', () => {
	it('is an OAuth 2 provider on API v2, asking for the identity and its email', () => {
		const patreon = normalized(Patreon());
		expect(patreon).toMatchObject({ id: 'patreon', name: 'Patreon', type: 'oauth' });
		expect(urlOf(patreon.authorization)).toBe('https://www.patreon.com/oauth2/authorize');
		expect(scopeOf(patreon)).toBe('identity identity[email]');
		expect(urlOf(patreon.token)).toBe('https://www.patreon.com/api/oauth2/token');
		expect(urlOf(patreon.userinfo)).toBe('https://www.patreon.com/api/oauth2/v2/identity');
		// API v2 answers only the fields asked for.
		expect(paramsOf(patreon.userinfo)).toEqual({ 'fields[user]': 'email,is_email_verified,full_name,image_url' });
	});

	it('maps data.attributes', async () => {
		expect(await mappedUser(normalized(Patreon()), IDENTITY)).toEqual({
			id: '12345678',
			name: 'Corey Creator',
			email: 'creator@acme.test',
			image: 'https://c8.patreon.com/3/200/12345678'
		});
		await expect(defaultUser(IDENTITY)).rejects.toThrow(/without an id/);
	});

	it('an address Patreon has not verified is not taken', async () => {
		const unverified = { ...IDENTITY, data: { ...IDENTITY.data, attributes: { ...IDENTITY.data.attributes, is_email_verified: false } } };
		expect((await mappedUser(normalized(Patreon()), unverified)).email).toBeNull();
	});
});
