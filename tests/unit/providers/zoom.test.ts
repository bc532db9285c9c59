import { describe, expect, it } from 'vitest';
import Zoom, { type ZoomProfile } from '../../../src/lib/providers/zoom.js';
import { defaultUser, mappedUser, normalized, paramsOf, urlOf } from './helpers.js';

/** `GET /v2/users/me` (main fields). */
const ME: ZoomProfile = {
	id: 'KDcuGIm1QgePTO8WbOqwIQ',
	first_name: 'Jill',
	last_name: 'Chill',
	display_name: 'Jill Chill',
	email: 'jchill@acme.test',
	type: 2,
	role_name: 'Owner',
	pmi: 3542471135,
	use_pmi: false,
	personal_meeting_url: 'https://zoom.us/j/3542471135?pwd=abc',
	timezone: 'Asia/Shanghai',
	verified: 1,
	dept: '',
	created_at: '2019-06-01T07:58:03Z',
	last_login_time: '2019-06-01T07:58:03Z',
	pic_url: 'https://lh4.googleusercontent.com/-AbCdEf/photo.jpg',
	language: 'en-US',
	phone_number: '',
	status: 'active',
	role_id: '0',
	account_id: 'q6gBJVO5TzexKYTb_I2rpg',
	account_number: 10009239,
	cluster: 'us05',
	user_created_at: '2019-06-01T07:58:03Z'
};

describe('Zoom preset', () => {
	it('is an OAuth 2 provider with the scopes configured in the app (none asked for)', () => {
		const zoom = normalized(Zoom());
		expect(zoom).toMatchObject({ id: 'zoom', name: 'Zoom', type: 'oauth' });
		expect(urlOf(zoom.authorization)).toBe('https://zoom.us/oauth/authorize');
		expect(paramsOf(zoom.authorization)).toBeUndefined();
		expect(urlOf(zoom.token)).toBe('https://zoom.us/oauth/token');
		expect(zoom.userinfo).toBe('https://api.zoom.us/v2/users/me');
	});

	it('maps /v2/users/me: display name, pic_url', async () => {
		expect(await mappedUser(normalized(Zoom()), ME)).toEqual({
			id: 'KDcuGIm1QgePTO8WbOqwIQ',
			name: 'Jill Chill',
			email: 'jchill@acme.test',
			image: 'https://lh4.googleusercontent.com/-AbCdEf/photo.jpg'
		});
		expect(await defaultUser(ME)).toMatchObject({ name: null, image: null });
	});

	it('without a display name, first and last name; without a picture, no image', async () => {
		const { display_name: _name, pic_url: _pic, ...bare } = ME;
		expect(await mappedUser(normalized(Zoom()), bare)).toMatchObject({ name: 'Jill Chill', image: null });
	});
});
