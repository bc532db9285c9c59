import { describe, expect, it } from 'vitest';
import Facebook, { FACEBOOK_GRAPH_VERSION, type FacebookProfile } from '../../../src/lib/providers/facebook.js';
import { defaultUser, mappedUser, normalized, paramsOf, scopeOf, urlOf } from './helpers.js';

/** `GET /me?fields=id,name,email,picture` as the Graph API answers it. */
const ME: FacebookProfile = {
	id: '10229871234567890',
	name: 'Mark Example',
	email: 'mark@acme.test',
	picture: {
		data: {
			height: 50,
			is_silhouette: false,
			url: 'https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10229871234567890&height=50&width=50&ext=1751539200&hash=AbC',
			width: 50
		}
	}
};

describe('Facebook preset', () => {
	it('is an OAuth 2 provider on one Graph API version, asking for the email', () => {
		const facebook = normalized(Facebook());
		expect(FACEBOOK_GRAPH_VERSION).toMatch(/^v\d+\.0$/);
		expect(facebook).toMatchObject({ id: 'facebook', name: 'Facebook', type: 'oauth' });
		expect(urlOf(facebook.authorization)).toBe(`https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`);
		expect(scopeOf(facebook)).toBe('email public_profile');
		expect(urlOf(facebook.token)).toBe(`https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`);
		expect(urlOf(facebook.userinfo)).toBe(`https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/me`);
		// The Graph API answers only the fields asked for.
		expect(paramsOf(facebook.userinfo)).toEqual({ fields: 'id,name,email,picture' });
	});

	it('maps /me: the picture is nested under picture.data', async () => {
		const user = { id: '10229871234567890', name: 'Mark Example', email: 'mark@acme.test', image: ME.picture?.data.url };
		expect(await mappedUser(normalized(Facebook()), ME)).toEqual(user);
		expect((await defaultUser(ME)).image).toBeNull();
	});

	it('the default silhouette is no image; a user without email has none', async () => {
		const silhouette = { ...ME, email: undefined, picture: { data: { ...ME.picture!.data, is_silhouette: true } } };
		expect(await mappedUser(normalized(Facebook()), silhouette)).toEqual({
			id: '10229871234567890',
			name: 'Mark Example',
			email: null,
			image: null
		});
	});
});
