import { afterAll, describe, expect, it } from 'vitest';
import Twitch from '../../../src/lib/providers/twitch.js';
import { normalized, serveJson } from './helpers.js';

/** Twitch's token response: `scope` is an array. */
const TOKEN = {
	access_token: 'rfx2uswqe8l4g1mkagrvg5tv0ks3',
	expires_in: 14124,
	id_token: 'eyJhbGciOiJSUzI1NiJ9.e30.sig',
	refresh_token: '5b93chm6hdve3mycz05zfzatkfdenfspp1h1ar2xxdalen01',
	scope: ['openid', 'user:read:email'],
	token_type: 'bearer'
};

const server = await serveJson({
	'/oauth2/token': () => ({ body: TOKEN }),
	'/oauth2/userinfo': () => ({ body: { sub: '713936733', scope: ['not', 'a', 'token', 'response'] } })
});
afterAll(() => server.close());

describe('Twitch preset', () => {
	it('its fetch turns the scope array of token responses into the space-separated string OAuth 2 wants', async () => {
		const twitch = normalized(Twitch());
		const response = await twitch.fetch!(`${server.origin}/oauth2/token`, {
			method: 'POST',
			body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' })
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('application/json');
		expect(await response.json()).toEqual({ ...TOKEN, scope: 'openid user:read:email' });
	});

	it('leaves other responses alone', async () => {
		const twitch = normalized(Twitch());
		const response = await twitch.fetch!(`${server.origin}/oauth2/userinfo`, { headers: { authorization: 'Bearer x' } });
		expect(await response.json()).toEqual({ sub: '713936733', scope: ['not', 'a', 'token', 'response'] });
	});
});
