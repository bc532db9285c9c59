import { afterAll, describe, expect, it } from 'vitest';
import Strava, { type StravaProfile } from '../../../src/lib/providers/strava.js';
import { defaultUser, mappedUser, normalized, paramsOf, requestProfile, scopeOf, serveJson, urlOf } from './helpers.js';

/** `GET /api/v3/athlete` (summary representation); the id is a number. */
const ATHLETE = {
	id: 134815,
	username: 'marianne_t',
	resource_state: 2,
	firstname: 'Marianne',
	lastname: 'Teutenberg',
	bio: '',
	city: 'San Francisco',
	state: 'CA',
	country: 'US',
	sex: 'F' as const,
	premium: true,
	summit: true,
	created_at: '2017-11-14T02:30:05Z',
	updated_at: '2018-02-06T19:32:20Z',
	badge_type_id: 4,
	weight: 0,
	profile_medium: 'https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/12345/2/medium.jpg',
	profile: 'https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/12345/2/large.jpg',
	friend: null,
	follower: null
};

const TOKENS = { access_token: 'a4b945687g...', token_type: 'bearer' };

const server = await serveJson({ '/api/v3/athlete': () => ({ body: ATHLETE }) });
afterAll(() => server.close());

describe('Strava preset', () => {
	it('is an OAuth 2 provider reading public data, the secret in the body', () => {
		const strava = normalized(Strava());
		expect(strava).toMatchObject({ id: 'strava', name: 'Strava', type: 'oauth' });
		expect(urlOf(strava.authorization)).toBe('https://www.strava.com/oauth/authorize');
		expect(scopeOf(strava)).toBe('read');
		expect(paramsOf(strava.authorization)?.approval_prompt).toBe('auto');
		expect(urlOf(strava.token)).toBe('https://www.strava.com/oauth/token');
		expect(strava.client).toEqual({ token_endpoint_auth_method: 'client_secret_post' });
		expect(urlOf(strava.userinfo)).toBe('https://www.strava.com/api/v3/athlete');
	});

	it('fetches the athlete with the bearer token and hands the numeric id on as a string', async () => {
		const profile = await requestProfile(normalized(Strava({ userinfo: { url: `${server.origin}/api/v3/athlete` } })), TOKENS);
		expect(server.requests.at(-1)).toEqual({ path: '/api/v3/athlete', authorization: `Bearer ${TOKENS.access_token}` });
		expect(profile).toEqual({ ...ATHLETE, id: '134815' });
	});

	it('maps the athlete: first and last name, the large photo, no email', async () => {
		const profile: StravaProfile = { ...ATHLETE, id: '134815' };
		expect(await mappedUser(normalized(Strava()), profile)).toEqual({
			id: '134815',
			name: 'Marianne Teutenberg',
			email: null,
			image: ATHLETE.profile
		});
		expect(await defaultUser(profile)).toMatchObject({ name: null, image: null });
	});

	it("Strava's placeholder avatar (a relative path) is no image", async () => {
		const profile: StravaProfile = { ...ATHLETE, id: '1', profile: 'avatar/athlete/large.png' };
		expect((await mappedUser(normalized(Strava()), profile)).image).toBeNull();
	});
});
