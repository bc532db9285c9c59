import { describe, expect, it } from 'vitest';
import Atlassian, { type AtlassianProfile } from '../../../src/lib/providers/atlassian.js';
import { defaultUser, mappedUser, normalized, paramsOf, scopeOf, urlOf } from './helpers.js';

/** `GET https://api.atlassian.com/me`. */
const ME: AtlassianProfile = {
	account_type: 'atlassian',
	account_id: '112233:aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
	email: 'mia@acme.test',
	email_verified: true,
	name: 'Mia Krystof',
	picture: 'https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233/aaaa/128',
	account_status: 'active',
	nickname: 'mkrystof',
	zoneinfo: 'Australia/Sydney',
	locale: 'en-US',
	extended_profile: { job_title: 'Designer', organization: 'Acme', department: 'Design team', location: 'Sydney' }
};

describe('Atlassian preset', () => {
	it('is an OAuth 2 (3LO) provider for the api.atlassian.com audience, without PKCE', () => {
		const atlassian = normalized(Atlassian());
		expect(atlassian).toMatchObject({ id: 'atlassian', name: 'Atlassian', type: 'oauth', checks: ['state'] });
		expect(urlOf(atlassian.authorization)).toBe('https://auth.atlassian.com/authorize');
		expect(paramsOf(atlassian.authorization)).toEqual({ audience: 'api.atlassian.com', scope: 'read:me' });
		expect(urlOf(atlassian.token)).toBe('https://auth.atlassian.com/oauth/token');
		expect(atlassian.userinfo).toBe('https://api.atlassian.com/me');
		expect(scopeOf(normalized(Atlassian({ authorization: { params: { scope: 'read:me offline_access' } } })))).toBe('read:me offline_access');
	});

	it('maps /me: the id is account_id', async () => {
		expect(await mappedUser(normalized(Atlassian()), ME)).toEqual({
			id: '112233:aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
			name: 'Mia Krystof',
			email: 'mia@acme.test',
			image: 'https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233/aaaa/128'
		});
		await expect(defaultUser(ME)).rejects.toThrow(/without an id/);
	});
});
