import { describe, expect, it } from 'vitest';
import Naver, { type NaverProfile } from '../../../src/lib/providers/naver.js';
import { defaultUser, mappedUser, normalized, urlOf } from './helpers.js';

/** `GET https://openapi.naver.com/v1/nid/me`: the user is under `response`. */
const ME: NaverProfile = {
	resultcode: '00',
	message: 'success',
	response: {
		email: 'openapi@naver.com',
		nickname: 'OpenAPI',
		profile_image: 'https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif',
		age: '40-49',
		gender: 'F',
		id: '32742776',
		name: '오픈 API',
		birthday: '10-01',
		birthyear: '1900',
		mobile: '010-0000-0000'
	}
};

describe('Naver preset', () => {
	it('is an OAuth 2 provider on nid.naver.com', () => {
		const naver = normalized(Naver());
		expect(naver).toMatchObject({ id: 'naver', name: 'Naver', type: 'oauth' });
		expect(urlOf(naver.authorization)).toBe('https://nid.naver.com/oauth2.0/authorize');
		expect(urlOf(naver.token)).toBe('https://nid.naver.com/oauth2.0/token');
		expect(naver.userinfo).toBe('https://openapi.naver.com/v1/nid/me');
	});

	it('maps the user under response: the nickname names them (as in Auth.js)', async () => {
		expect(await mappedUser(normalized(Naver()), ME)).toEqual({
			id: '32742776',
			name: 'OpenAPI',
			email: 'openapi@naver.com',
			image: 'https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif'
		});
		await expect(defaultUser(ME)).rejects.toThrow(/without an id/);
	});

	it('without a nickname, the name', async () => {
		const { nickname: _nickname, ...rest } = ME.response;
		expect((await mappedUser(normalized(Naver()), { ...ME, response: rest })).name).toBe('오픈 API');
	});
});
