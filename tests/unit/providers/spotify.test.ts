import { describe, expect, it } from 'vitest';
import Spotify, { type SpotifyProfile } from '../../../src/lib/providers/spotify.js';
import { defaultUser, mappedUser, normalized, scopeOf, urlOf } from './helpers.js';

/** `GET /v1/me` with `user-read-email`. */
const ME: SpotifyProfile = {
	display_name: 'Jane Listener',
	email: 'jane@acme.test',
	external_urls: { spotify: 'https://open.spotify.com/user/31abcxyz' },
	followers: { href: null, total: 12 },
	href: 'https://api.spotify.com/v1/users/31abcxyz',
	id: '31abcxyz',
	images: [
		{ url: 'https://i.scdn.co/image/ab67757000003b82aaaa', height: 300, width: 300 },
		{ url: 'https://i.scdn.co/image/ab6775700000ee85bbbb', height: 64, width: 64 }
	],
	type: 'user',
	uri: 'spotify:user:31abcxyz'
};

describe('Spotify preset', () => {
	it('is an OAuth 2 provider asking for the email', () => {
		const spotify = normalized(Spotify());
		expect(spotify).toMatchObject({ id: 'spotify', name: 'Spotify', type: 'oauth' });
		expect(urlOf(spotify.authorization)).toBe('https://accounts.spotify.com/authorize');
		expect(scopeOf(spotify)).toBe('user-read-email');
		expect(urlOf(spotify.token)).toBe('https://accounts.spotify.com/api/token');
		expect(spotify.userinfo).toBe('https://api.spotify.com/v1/me');
	});

	it('maps /v1/me: display_name, the largest image', async () => {
		expect(await mappedUser(normalized(Spotify()), ME)).toEqual({
			id: '31abcxyz',
			name: 'Jane Listener',
			email: 'jane@acme.test',
			image: 'https://i.scdn.co/image/ab67757000003b82aaaa'
		});
		expect(await defaultUser(ME)).toMatchObject({ name: null, image: null });
	});

	it('a user without a display name or pictures: the id names them, no image', async () => {
		expect(await mappedUser(normalized(Spotify()), { ...ME, display_name: null, images: [] })).toMatchObject({
			name: '31abcxyz',
			image: null
		});
	});
});
