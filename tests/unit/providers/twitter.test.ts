import { describe, expect, it } from 'vitest';
import Twitter, { type TwitterProfile } from '../../../src/lib/providers/twitter.js';
import { mappedUser, normalized, paramsOf, scopeOf, urlOf } from './helpers.js';

/** `GET /2/users/me?user.fields=profile_image_url`: the user is under `data`. */
const ME: TwitterProfile = {
	data: {
		id: '2244994945',
		name: 'X Developers',
		username: 'XDevelopers',
		profile_image_url: 'https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg'
	}
};

describe('Twitter (X) preset', () => {
	it('keeps the Auth.js id, and is an OAuth 2 provider on x.com with PKCE', () => {
		const twitter = normalized(Twitter());
		expect(twitter).toMatchObject({ id: 'twitter', name: 'X', type: 'oauth', checks: ['pkce', 'state'] });
		expect(urlOf(twitter.authorization)).toBe('https://x.com/i/oauth2/authorize');
		expect(scopeOf(twitter)).toBe('users.read tweet.read offline.access');
		expect(urlOf(twitter.token)).toBe('https://api.x.com/2/oauth2/token');
		expect(urlOf(twitter.userinfo)).toBe('https://api.x.com/2/users/me');
		expect(paramsOf(twitter.userinfo)).toEqual({ 'user.fields': 'profile_image_url' });
		// A confidential client: Basic authentication, kitauth's default.
		expect(twitter.client).toBeUndefined();
	});

	it('maps the user under data; no email without the users.email scope', async () => {
		expect(await mappedUser(normalized(Twitter()), ME)).toEqual({
			id: '2244994945',
			name: 'X Developers',
			email: null,
			image: 'https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg'
		});
		const withEmail = { data: { ...ME.data, confirmed_email: 'dev@acme.test' } };
		expect((await mappedUser(normalized(Twitter()), withEmail)).email).toBe('dev@acme.test');
	});

	it('the default mapping finds no id in { data }: the preset maps it', async () => {
		await expect(mappedUser({ id: 'bare', name: 'Bare', type: 'oauth' }, ME)).rejects.toThrow(/without an id/);
	});
});
