import { afterAll, describe, expect, it } from 'vitest';
import TikTok, { type TikTokProfile } from '../../../src/lib/providers/tiktok.js';
import { defaultUser, mappedUser, normalized, paramsOf, resolve, scopeOf, serveJson, urlOf } from './helpers.js';

/** `GET /v2/user/info/?fields=open_id,union_id,avatar_url,display_name`. */
const INFO: TikTokProfile = {
	data: {
		user: {
			avatar_url: 'https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg',
			open_id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4',
			union_id: 'c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1',
			display_name: 'Tik Toker'
		}
	},
	error: { code: 'ok', message: '', log_id: '20220829194722CBE87ED59D524E727021' }
};

const server = await serveJson({
	'/v2/oauth/token/': (_origin, request) => ({ body: { echo: Object.fromEntries(new URLSearchParams(request.body)) } })
});
afterAll(() => server.close());

describe('TikTok preset', () => {
	it('is an OAuth 2 provider that names the client id client_key', () => {
		const tiktok = normalized(TikTok({ clientId: 'awx0123456789' }));
		expect(tiktok).toMatchObject({ id: 'tiktok', name: 'TikTok', type: 'oauth' });
		expect(urlOf(tiktok.authorization)).toBe('https://www.tiktok.com/v2/auth/authorize/');
		expect(scopeOf(tiktok)).toBe('user.info.basic');
		expect(paramsOf(tiktok.authorization)?.client_key).toBe('awx0123456789');
		expect(urlOf(tiktok.token)).toBe('https://open.tiktokapis.com/v2/oauth/token/');
		expect(tiktok.client).toEqual({ token_endpoint_auth_method: 'client_secret_post' });
		expect(urlOf(tiktok.userinfo)).toBe('https://open.tiktokapis.com/v2/user/info/');
		expect(paramsOf(tiktok.userinfo)).toEqual({ fields: 'open_id,union_id,avatar_url,display_name' });
	});

	it('takes the client key from AUTH_TIKTOK_ID for the authorization URL', () => {
		const [tiktok] = resolve({ AUTH_TIKTOK_ID: 'awx-env', AUTH_TIKTOK_SECRET: 's' }, TikTok);
		expect(paramsOf(tiktok?.authorization)?.client_key).toBe('awx-env');
	});

	it('its fetch adds client_key to token requests (code and refresh), and nothing else', async () => {
		const tiktok = normalized(TikTok());
		const post = (body: Record<string, string>) =>
			tiktok.fetch!(`${server.origin}/v2/oauth/token/`, { method: 'POST', body: new URLSearchParams(body) }).then(
				async (response) => ((await response.json()) as { echo: Record<string, string> }).echo
			);
		expect(await post({ grant_type: 'authorization_code', code: 'c', client_id: 'awx1', client_secret: 's' })).toEqual({
			grant_type: 'authorization_code',
			code: 'c',
			client_id: 'awx1',
			client_secret: 's',
			client_key: 'awx1'
		});
		expect((await post({ grant_type: 'refresh_token', refresh_token: 'r', client_id: 'awx1' })).client_key).toBe('awx1');
		expect(await post({ hello: 'world' })).toEqual({ hello: 'world' });
	});

	it('maps data.user; TikTok tells no email', async () => {
		expect(await mappedUser(normalized(TikTok()), INFO)).toEqual({
			id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4',
			name: 'Tik Toker',
			email: null,
			image: INFO.data.user.avatar_url
		});
		await expect(defaultUser(INFO)).rejects.toThrow(/without an id/);
	});
});
