import { afterAll, describe, expect, it } from 'vitest';
import Kakao, { type KakaoProfile } from '../../../src/lib/providers/kakao.js';
import { defaultUser, mappedUser, normalized, paramsOf, requestProfile, serveJson, urlOf } from './helpers.js';

/** `GET /v2/user/me` with nickname, profile image and email agreed to; the id is a number. */
const ME = {
	id: 123456789,
	connected_at: '2022-04-11T01:45:28Z',
	properties: { nickname: '홍길동', profile_image: 'http://k.kakaocdn.net/dn/abc/img_640x640.jpg', thumbnail_image: 'http://k.kakaocdn.net/dn/abc/img_110x110.jpg' },
	kakao_account: {
		profile_nickname_needs_agreement: false,
		profile_image_needs_agreement: false,
		profile: {
			nickname: '홍길동',
			thumbnail_image_url: 'http://k.kakaocdn.net/dn/abc/img_110x110.jpg',
			profile_image_url: 'http://k.kakaocdn.net/dn/abc/img_640x640.jpg',
			is_default_image: false,
			is_default_nickname: false
		},
		email_needs_agreement: false,
		is_email_valid: true,
		is_email_verified: true,
		email: 'gildong@acme.test'
	}
};

const TOKENS = { access_token: 'kakao-access-token', token_type: 'bearer' };

const server = await serveJson({ '/v2/user/me': () => ({ body: ME }) });
afterAll(() => server.close());

describe('Kakao preset', () => {
	it('is an OAuth 2 provider whose consent items are the app console’s (no scope), the secret in the body', () => {
		const kakao = normalized(Kakao());
		expect(kakao).toMatchObject({ id: 'kakao', name: 'Kakao', type: 'oauth' });
		expect(urlOf(kakao.authorization)).toBe('https://kauth.kakao.com/oauth/authorize');
		expect(paramsOf(kakao.authorization)).toBeUndefined();
		expect(urlOf(kakao.token)).toBe('https://kauth.kakao.com/oauth/token');
		expect(kakao.client).toEqual({ token_endpoint_auth_method: 'client_secret_post' });
		expect(urlOf(kakao.userinfo)).toBe('https://kapi.kakao.com/v2/user/me');
	});

	it('fetches /v2/user/me with the bearer token and hands the numeric id on as a string', async () => {
		const profile = await requestProfile(normalized(Kakao({ userinfo: { url: `${server.origin}/v2/user/me` } })), TOKENS);
		expect(server.requests.at(-1)).toEqual({ path: '/v2/user/me', authorization: `Bearer ${TOKENS.access_token}` });
		expect(profile).toEqual({ ...ME, id: '123456789' });
	});

	it('maps kakao_account: nickname, verified email, profile image', async () => {
		const profile: KakaoProfile = { ...ME, id: '123456789' };
		expect(await mappedUser(normalized(Kakao()), profile)).toEqual({
			id: '123456789',
			name: '홍길동',
			email: 'gildong@acme.test',
			image: 'http://k.kakaocdn.net/dn/abc/img_640x640.jpg'
		});
		expect(await defaultUser(profile)).toMatchObject({ name: null, email: null });
	});

	it('an address Kakao marks invalid or unverified, and the default image, are not taken', async () => {
		const account = ME.kakao_account;
		const unverified: KakaoProfile = { ...ME, id: '1', kakao_account: { ...account, is_email_verified: false } };
		const invalid: KakaoProfile = { ...ME, id: '1', kakao_account: { ...account, is_email_valid: false } };
		const defaultImage: KakaoProfile = { ...ME, id: '1', kakao_account: { ...account, profile: { ...account.profile, is_default_image: true } } };
		expect((await mappedUser(normalized(Kakao()), unverified)).email).toBeNull();
		expect((await mappedUser(normalized(Kakao()), invalid)).email).toBeNull();
		expect((await mappedUser(normalized(Kakao()), defaultImage)).image).toBeNull();
	});
});
