import { afterAll, describe, expect, it } from 'vitest';
import Dropbox, { type DropboxProfile } from '../../../src/lib/providers/dropbox.js';
import { defaultUser, mappedUser, normalized, paramsOf, requestProfile, scopeOf, serveJson, urlOf } from './helpers.js';

const NAME = { given_name: 'Franz', surname: 'Ferdinand', familiar_name: 'Franz', display_name: 'Franz Ferdinand (Personal)', abbreviated_name: 'FF' };

/** `POST /2/users/get_current_account` as Dropbox answers it (main fields). */
const ACCOUNT = {
	account_id: 'dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc',
	name: NAME,
	email: 'franz@acme.test',
	email_verified: true,
	disabled: false,
	locale: 'en',
	referral_link: 'https://db.tt/ZITNuhtI',
	is_paired: false,
	account_type: { '.tag': 'basic' as const },
	root_info: { '.tag': 'user', root_namespace_id: '3235641', home_namespace_id: '3235641' },
	country: 'US',
	profile_photo_url: 'https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128'
};

/** What the preset hands on: the name object as `name_details`, `name` its display name. */
const PROFILE: DropboxProfile = { ...ACCOUNT, name: NAME.display_name, name_details: NAME };

const TOKENS = { access_token: 'sl.BAbCdEf', token_type: 'bearer' };

const server = await serveJson({ '/2/users/get_current_account': () => ({ body: ACCOUNT }) });
afterAll(() => server.close());

describe('Dropbox preset', () => {
	it('is an OAuth 2 provider asking for a refresh token (token_access_type offline)', () => {
		const dropbox = normalized(Dropbox());
		expect(dropbox).toMatchObject({ id: 'dropbox', name: 'Dropbox', type: 'oauth' });
		expect(urlOf(dropbox.authorization)).toBe('https://www.dropbox.com/oauth2/authorize');
		expect(scopeOf(dropbox)).toBe('account_info.read');
		expect(paramsOf(dropbox.authorization)?.token_access_type).toBe('offline');
		expect(urlOf(dropbox.token)).toBe('https://api.dropboxapi.com/oauth2/token');
		expect(urlOf(dropbox.userinfo)).toBe('https://api.dropboxapi.com/2/users/get_current_account');
	});

	it('POSTs get_current_account (an RPC endpoint) with the bearer token and no body', async () => {
		const profile = await requestProfile(normalized(Dropbox({ userinfo: { url: `${server.origin}/2/users/get_current_account` } })), TOKENS);
		const request = server.received.at(-1);
		expect(request).toMatchObject({ method: 'POST', path: '/2/users/get_current_account', body: '' });
		expect(request?.headers.authorization).toBe(`Bearer ${TOKENS.access_token}`);
		expect(profile).toEqual(PROFILE);
	});

	it('maps the account: account_id, the display name, the photo', async () => {
		expect(await mappedUser(normalized(Dropbox()), PROFILE)).toEqual({
			id: 'dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc',
			name: 'Franz Ferdinand (Personal)',
			email: 'franz@acme.test',
			image: ACCOUNT.profile_photo_url
		});
		await expect(defaultUser(PROFILE)).rejects.toThrow(/without an id/);
		const { profile_photo_url: _none, ...withoutPhoto } = PROFILE;
		expect((await mappedUser(normalized(Dropbox()), withoutPhoto)).image).toBeNull();
	});
});
