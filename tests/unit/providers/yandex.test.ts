import { describe, expect, it } from 'vitest';
import Yandex, { yandexAvatarUrl, type YandexAvatarSize, type YandexProfile } from '../../../src/lib/providers/yandex.js';
import { normalized, resolve, scopeOf, urlOf } from './helpers.js';

/** `GET https://login.yandex.ru/info?format=json` with login:info, login:email and login:avatar. */
const INFO_JSON: YandexProfile = {
	id: '1000034426',
	login: 'ivan',
	client_id: '4760187d81bc4b7799476b42b5103713',
	display_name: 'Ivan',
	real_name: 'Иван Иванов',
	first_name: 'Иван',
	last_name: 'Иванов',
	sex: 'male',
	default_email: 'ivan@yandex.ru',
	emails: ['ivan@yandex.ru'],
	birthday: '1987-03-12',
	default_avatar_id: '131652443/mzRSkcWNHcwxKxmM3msFfZb4sU-1',
	is_avatar_empty: false,
	default_phone: { id: 12345678, number: '+79037659418' },
	psuid: '1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge'
};

describe('Yandex preset', () => {
	it('is an OAuth 2 provider with Yandex ID endpoints and scopes', () => {
		const yandex = normalized(Yandex());
		expect(yandex).toMatchObject({ id: 'yandex', name: 'Yandex', type: 'oauth' });
		expect(urlOf(yandex.authorization)).toBe('https://oauth.yandex.ru/authorize');
		expect(scopeOf(yandex)).toBe('login:info login:email login:avatar');
		expect(urlOf(yandex.token)).toBe('https://oauth.yandex.ru/token');
		expect(urlOf(yandex.userinfo)).toBe('https://login.yandex.ru/info?format=json');
		expect(yandex.style).toEqual({ bg: '#ffcc00', text: '#000' });
	});

	it('maps /info to the user: real name, default email, 200×200 avatar', async () => {
		expect(await Yandex().profile?.(INFO_JSON, {})).toEqual({
			id: '1000034426',
			name: 'Иван Иванов',
			email: 'ivan@yandex.ru',
			image: 'https://avatars.yandex.net/get-yapic/131652443/mzRSkcWNHcwxKxmM3msFfZb4sU-1/islands-200'
		});
	});

	it('name falls back to display_name, then login; email to emails[0], then null', async () => {
		const { real_name: _real, default_email: _email, ...rest } = INFO_JSON;
		const partial = await Yandex().profile?.({ ...rest, emails: ['second@yandex.ru'] }, {});
		expect(partial).toMatchObject({ name: 'Ivan', email: 'second@yandex.ru' });
		const { display_name: _display, emails: _emails, ...minimal } = rest;
		expect(await Yandex().profile?.(minimal, {})).toMatchObject({ name: 'ivan', email: null });
	});

	it('the automatic stub avatar is no image; neither is a missing avatar id', async () => {
		expect((await Yandex().profile?.({ ...INFO_JSON, default_avatar_id: '0/0-0', is_avatar_empty: true }, {}))?.image).toBeNull();
		const { default_avatar_id: _id, ...noAvatar } = INFO_JSON;
		expect((await Yandex().profile?.(noAvatar, {}))?.image).toBeNull();
	});

	it('avatar URLs in all ten sizes', () => {
		const sizes: Record<YandexAvatarSize, number> = {
			'islands-small': 28,
			'islands-34': 34,
			'islands-middle': 42,
			'islands-50': 50,
			'islands-retina-small': 56,
			'islands-68': 68,
			'islands-75': 75,
			'islands-retina-middle': 84,
			'islands-retina-50': 100,
			'islands-200': 200
		};
		expect(Object.keys(sizes)).toHaveLength(10);
		for (const size of Object.keys(sizes) as YandexAvatarSize[]) {
			expect(yandexAvatarUrl('131652443/mzRSkcWNHcwxKxmM3msFfZb4sU-1', size)).toBe(
				`https://avatars.yandex.net/get-yapic/131652443/mzRSkcWNHcwxKxmM3msFfZb4sU-1/${size}`
			);
		}
		expect(yandexAvatarUrl('42/a')).toBe('https://avatars.yandex.net/get-yapic/42/a/islands-200');
		// Provider data stays inside its path segment.
		expect(yandexAvatarUrl('42/a?b#c')).toBe('https://avatars.yandex.net/get-yapic/42/a%3Fb%23c/islands-200');
	});

	it('app options win: scope keeps the URL; custom profile and id', async () => {
		const yandex = normalized(
			Yandex({
				id: 'yandex-id',
				authorization: { params: { scope: 'login:info login:birthday' } },
				profile: (info) => ({ id: info.psuid, name: info.login })
			})
		);
		expect(yandex.id).toBe('yandex-id');
		expect(scopeOf(yandex)).toBe('login:info login:birthday');
		expect(urlOf(yandex.authorization)).toBe('https://oauth.yandex.ru/authorize');
		expect(await yandex.profile?.(INFO_JSON, {})).toEqual({ id: INFO_JSON.psuid, name: 'ivan' });
	});

	it('env inference: AUTH_YANDEX_ID/_SECRET; explicit options beat env', () => {
		const env = { AUTH_YANDEX_ID: '4760187d81bc4b7799476b42b5103713', AUTH_YANDEX_SECRET: 'env-secret' };
		const [fromEnv] = resolve(env, Yandex);
		expect(fromEnv).toMatchObject({ id: 'yandex', clientId: '4760187d81bc4b7799476b42b5103713', clientSecret: 'env-secret' });
		const [explicit] = resolve(env, Yandex({ clientId: 'explicit' }));
		expect(explicit).toMatchObject({ clientId: 'explicit', clientSecret: 'env-secret' });
	});
});
