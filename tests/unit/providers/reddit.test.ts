import { afterAll, describe, expect, it } from 'vitest';
import Reddit, { type RedditProfile } from '../../../src/lib/providers/reddit.js';
import { defaultUser, mappedUser, normalized, paramsOf, requestProfile, scopeOf, serveJson, urlOf } from './helpers.js';

/** `GET https://oauth.reddit.com/api/v1/me` with the identity scope (main fields). */
const ME = {
	id: '1w72',
	name: 'spez',
	created_utc: 1118030400,
	has_verified_email: true,
	icon_img: 'https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;crop=256:256,smart&amp;s=abc',
	snoovatar_img: '',
	verified: true,
	is_suspended: false,
	over_18: true,
	link_karma: 100,
	comment_karma: 200,
	total_karma: 300,
	subreddit: { display_name_prefixed: 'u/spez', public_description: '' }
} satisfies RedditProfile;

const TOKENS = { access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IlNIQTI1NjpzS3dsMnlsV0VtMjVmcXhwTU40cWY4MXE2OWFFdWFyMnpLMUdhVGxjdWNZIiwidHlwIjoiSldUIn0', token_type: 'bearer' };

const server = await serveJson({ '/api/v1/me': () => ({ body: ME }), '/down/api/v1/me': () => ({ status: 429, body: { message: 'Too Many Requests', error: 429 } }) });
afterAll(() => server.close());

describe('Reddit preset', () => {
	it('is an OAuth 2 provider with Basic client authentication, the required duration, and no PKCE', () => {
		const reddit = normalized(Reddit());
		expect(reddit).toMatchObject({ id: 'reddit', name: 'Reddit', type: 'oauth', checks: ['state'] });
		expect(urlOf(reddit.authorization)).toBe('https://www.reddit.com/api/v1/authorize');
		expect(scopeOf(reddit)).toBe('identity');
		expect(paramsOf(reddit.authorization)?.duration).toBe('temporary');
		expect(urlOf(reddit.token)).toBe('https://www.reddit.com/api/v1/access_token');
		expect(reddit.client).toEqual({ token_endpoint_auth_method: 'client_secret_basic' });
		expect(urlOf(reddit.userinfo)).toBe('https://oauth.reddit.com/api/v1/me');
		expect(paramsOf(normalized(Reddit({ authorization: { params: { duration: 'permanent' } } })).authorization)).toEqual({
			scope: 'identity',
			duration: 'permanent'
		});
	});

	it('fetches /api/v1/me with the bearer token and a User-Agent of its own', async () => {
		const reddit = normalized(Reddit({ userinfo: { url: `${server.origin}/api/v1/me` } }));
		const profile = await requestProfile(reddit, TOKENS);
		const request = server.received.at(-1);
		expect(request?.path).toBe('/api/v1/me');
		expect(request?.headers.authorization).toBe(`Bearer ${TOKENS.access_token}`);
		expect(request?.headers['user-agent']).toBe('kitauth (sign-in)');
		expect(profile).toEqual(ME);
	});

	it('a throttled /api/v1/me throws', async () => {
		await expect(requestProfile(normalized(Reddit({ userinfo: { url: `${server.origin}/down/api/v1/me` } })), TOKENS)).rejects.toThrow(/429/);
	});

	it('maps the user: the username names them, the icon unescaped, no email', async () => {
		expect(await mappedUser(normalized(Reddit()), ME)).toEqual({
			id: '1w72',
			name: 'spez',
			email: null,
			image: 'https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&crop=256:256,smart&s=abc'
		});
		expect((await defaultUser(ME)).image).toBeNull();
	});
});
