import { afterAll, describe, expect, it } from 'vitest';
import { customFetch } from '../../../src/lib/core/markers.js';
import VK, { VK_API_VERSION, type VKProfile } from '../../../src/lib/providers/vk.js';
import { defaultUser, mappedUser, normalized, paramsOf, requestProfile, scopeOf, serveJson, urlOf } from './helpers.js';

/** `users.get?fields=photo_100`: the users are under `response`, ids are numbers. */
const USERS_GET = {
	response: [
		{
			id: 210700286,
			first_name: 'Lindsey',
			last_name: 'Stirling',
			photo_100: 'https://sun1-18.userapi.com/s/v1/ig2/abc.jpg?size=100x100&quality=95&crop=0,0,400,400&ava=1',
			can_access_closed: true,
			is_closed: false
		}
	]
};
/** The token endpoint's answer: the email is here, and there is no `token_type`. */
const TOKEN = { access_token: 'vk1.a.0123456789abcdef', expires_in: 86400, user_id: 210700286, email: 'lindsey@acme.test' };

const server = await serveJson({
	'/method/users.get': () => ({ body: USERS_GET }),
	'/failing/method/users.get': () => ({ body: { error: { error_code: 5, error_msg: 'User authorization failed: invalid access_token (4).' } } }),
	'/access_token': () => ({ body: TOKEN }),
	'/other': () => ({ body: { hello: 'world' } })
});
afterAll(() => server.close());

describe('VK preset', () => {
	it('is an OAuth 2 provider naming its API version everywhere, the secret in the body', () => {
		const vk = normalized(VK());
		expect(vk).toMatchObject({ id: 'vk', name: 'VK', type: 'oauth' });
		expect(urlOf(vk.authorization)).toBe('https://oauth.vk.com/authorize');
		expect(scopeOf(vk)).toBe('email');
		expect(paramsOf(vk.authorization)?.v).toBe(VK_API_VERSION);
		expect(urlOf(vk.token)).toBe(`https://oauth.vk.com/access_token?v=${VK_API_VERSION}`);
		expect(vk.client).toEqual({ token_endpoint_auth_method: 'client_secret_post' });
		expect(urlOf(vk.userinfo)).toBe('https://api.vk.com/method/users.get');
	});

	it('users.get with the bearer token, fields and version; the id as a string, the email from the tokens', async () => {
		const vk = normalized(VK({ userinfo: { url: `${server.origin}/method/users.get` } }));
		const profile = await requestProfile(vk, { ...TOKEN, token_type: 'bearer' });
		const request = server.received.at(-1);
		expect(request?.headers.authorization).toBe(`Bearer ${TOKEN.access_token}`);
		expect(Object.fromEntries(request?.query ?? [])).toEqual({ fields: 'photo_100', v: VK_API_VERSION });
		expect(profile).toEqual({ ...USERS_GET.response[0], id: '210700286', email: 'lindsey@acme.test' });
		expect((await requestProfile(vk, { access_token: 'x', token_type: 'bearer' })).email).toBeNull();
	});

	it("an API error (VK answers it with 200) throws with VK's message", async () => {
		const vk = normalized(VK({ userinfo: { url: `${server.origin}/failing/method/users.get` } }));
		await expect(requestProfile(vk, { access_token: 'x' })).rejects.toThrow(/invalid access_token/);
	});

	it('maps the user: first and last name, the photo', async () => {
		const profile: VKProfile = { ...USERS_GET.response[0]!, id: '210700286', email: 'lindsey@acme.test' };
		expect(await mappedUser(normalized(VK()), profile)).toEqual({
			id: '210700286',
			name: 'Lindsey Stirling',
			email: 'lindsey@acme.test',
			image: USERS_GET.response[0]?.photo_100
		});
		expect(await defaultUser(profile)).toMatchObject({ name: null, image: null });
	});

	it("its fetch adds the token_type VK's token response lacks, and leaves other responses alone", async () => {
		const vk = normalized(VK());
		const tokenResponse = await vk.fetch!(`${server.origin}/access_token?v=${VK_API_VERSION}`, {
			method: 'POST',
			body: new URLSearchParams({ grant_type: 'authorization_code', code: 'abc' })
		});
		expect(await tokenResponse.json()).toEqual({ ...TOKEN, token_type: 'bearer' });
		const other = await vk.fetch!(`${server.origin}/other`, { method: 'GET' });
		expect(await other.json()).toEqual({ hello: 'world' });
	});

	it("wraps the app's own fetch ([customFetch]) instead of being replaced by it", async () => {
		const seen: string[] = [];
		const appFetch: typeof fetch = (input, init) => {
			seen.push(String(input));
			return fetch(input, init);
		};
		const vk = normalized(VK({ [customFetch]: appFetch }));
		const response = await vk.fetch!(`${server.origin}/access_token`, {
			method: 'POST',
			body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' })
		});
		expect(((await response.json()) as { token_type?: string }).token_type).toBe('bearer');
		expect(seen).toEqual([`${server.origin}/access_token`]);
	});
});
