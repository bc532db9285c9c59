/**
 * The OpenID Connect presets whose endpoints come from discovery: their issuer, scope, checks and
 * client settings, and the user each makes of a realistic ID token (or, for Salesforce, userinfo).
 * All but Cognito leave the mapping to the default one, which these claims show fits them.
 */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../src/lib/core/types/models.js';
import type { OAuthConfig, Provider } from '../../../src/lib/core/types/provider.js';
import Authentik from '../../../src/lib/providers/authentik.js';
import Cognito, { type CognitoProfile } from '../../../src/lib/providers/cognito.js';
import LINE from '../../../src/lib/providers/line.js';
import LinkedIn from '../../../src/lib/providers/linkedin.js';
import Okta from '../../../src/lib/providers/okta.js';
import Salesforce from '../../../src/lib/providers/salesforce.js';
import Slack from '../../../src/lib/providers/slack.js';
import Twitch from '../../../src/lib/providers/twitch.js';
import Zitadel from '../../../src/lib/providers/zitadel.js';
import { defaultUser, mappedUser, normalized, paramsOf, resolve, scopeOf } from './helpers.js';

interface Case {
	preset: (options?: Record<string, unknown>) => OAuthConfig;
	id: string;
	name: string;
	/** A fixed issuer; `undefined` when it comes from the app (then `appIssuer` is one). */
	issuer?: string;
	appIssuer?: string;
	scope: string;
	checks?: string[];
	client?: Record<string, unknown>;
	idToken?: boolean;
	claims: Profile;
	user: { id: string; name: string | null; email: string | null; image: string | null };
}

const cases: Case[] = [
	{
		preset: LinkedIn as Case['preset'],
		id: 'linkedin',
		name: 'LinkedIn',
		issuer: 'https://www.linkedin.com/oauth',
		scope: 'openid profile email',
		checks: ['state'],
		client: { token_endpoint_auth_method: 'client_secret_post' },
		claims: {
			iss: 'https://www.linkedin.com/oauth',
			aud: '86a1b2c3d4e5f6',
			iat: 1748947200,
			exp: 1748950800,
			sub: 'oJ3XbE5Qw1',
			name: 'Ada Lovelace',
			given_name: 'Ada',
			family_name: 'Lovelace',
			picture: 'https://media.licdn.com/dms/image/v2/D4E03AQ/profile-displayphoto-shrink_100_100/0/1700000000000?e=1760000000&v=beta&t=abc',
			email: 'ada@acme.test',
			email_verified: true,
			locale: 'en_GB'
		},
		user: {
			id: 'oJ3XbE5Qw1',
			name: 'Ada Lovelace',
			email: 'ada@acme.test',
			image: 'https://media.licdn.com/dms/image/v2/D4E03AQ/profile-displayphoto-shrink_100_100/0/1700000000000?e=1760000000&v=beta&t=abc'
		}
	},
	{
		preset: Slack as Case['preset'],
		id: 'slack',
		name: 'Slack',
		issuer: 'https://slack.com',
		scope: 'openid profile email',
		checks: ['state', 'nonce'],
		claims: {
			iss: 'https://slack.com',
			sub: 'U0R7MFMJM',
			aud: '25259531569.1115258246291',
			exp: 1748950800,
			iat: 1748947200,
			auth_time: 1748947200,
			nonce: 'abcd',
			at_hash: 'tUGD1BLnwu4PFC_DDvmVdA',
			'https://slack.com/team_id': 'T0R7GR',
			'https://slack.com/user_id': 'U0R7MFMJM',
			email: 'grace@acme.test',
			email_verified: true,
			date_email_verified: 1622128723,
			locale: 'en-US',
			name: 'Grace Hopper',
			picture: 'https://secure.gravatar.com/avatar/bc9.jpg?s=512&d=https%3A%2F%2Fa.slack-edge.com%2F1a.png',
			given_name: 'Grace',
			family_name: 'Hopper',
			'https://slack.com/team_name': 'Acme',
			'https://slack.com/team_domain': 'acme'
		},
		user: {
			id: 'U0R7MFMJM',
			name: 'Grace Hopper',
			email: 'grace@acme.test',
			image: 'https://secure.gravatar.com/avatar/bc9.jpg?s=512&d=https%3A%2F%2Fa.slack-edge.com%2F1a.png'
		}
	},
	{
		preset: Twitch as Case['preset'],
		id: 'twitch',
		name: 'Twitch',
		issuer: 'https://id.twitch.tv/oauth2',
		scope: 'openid user:read:email',
		client: { token_endpoint_auth_method: 'client_secret_post' },
		claims: {
			aud: 'hof5gwx0su6owfnys0yan9c87zr6t',
			exp: 1748950800,
			iat: 1748947200,
			iss: 'https://id.twitch.tv/oauth2',
			sub: '713936733',
			azp: 'hof5gwx0su6owfnys0yan9c87zr6t',
			nonce: 'n-0S6_WzA2Mj',
			email: 'streamer@acme.test',
			email_verified: true,
			picture: 'https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-150x150.png',
			preferred_username: 'Streamer42'
		},
		user: {
			id: '713936733',
			name: 'Streamer42',
			email: 'streamer@acme.test',
			image: 'https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-150x150.png'
		}
	},
	{
		preset: Okta as Case['preset'],
		id: 'okta',
		name: 'Okta',
		appIssuer: 'https://acme.okta.com/oauth2/default',
		scope: 'openid profile email',
		claims: {
			sub: '00uid4BxXw6I6TV4m0g3',
			name: 'John Doe',
			email: 'john.doe@acme.test',
			ver: 1,
			iss: 'https://acme.okta.com/oauth2/default',
			aud: '0oabucvyc38HLL1ef0h7',
			iat: 1748947200,
			exp: 1748950800,
			jti: 'ID.4eAWJOCMB3SX8XewDfVR',
			amr: ['pwd'],
			idp: '00ok1u7AsAkrwdZL3z0g3',
			nonce: 'n-0S6_WzA2Mj',
			preferred_username: 'john.doe@acme.test',
			auth_time: 1748947100,
			email_verified: true
		},
		user: { id: '00uid4BxXw6I6TV4m0g3', name: 'John Doe', email: 'john.doe@acme.test', image: null }
	},
	{
		preset: Zitadel as Case['preset'],
		id: 'zitadel',
		name: 'ZITADEL',
		appIssuer: 'https://acme-xyz.zitadel.cloud',
		scope: 'openid profile email',
		claims: {
			iss: 'https://acme-xyz.zitadel.cloud',
			sub: '259242039378444290',
			aud: ['259242067161014274', '259241995954313218'],
			exp: 1748950800,
			iat: 1748947200,
			auth_time: 1748947100,
			amr: ['password', 'pwd'],
			azp: '259242067161014274',
			client_id: '259242067161014274',
			at_hash: 'rXvMvT3FmJ3oyMf0ryB_hg',
			sid: 'V1_259242142217822210',
			name: 'Road Runner',
			given_name: 'Road',
			family_name: 'Runner',
			locale: null,
			updated_at: 1710925012,
			preferred_username: 'road.runner@acme.test',
			email: 'road.runner@acme.test',
			email_verified: true
		},
		user: { id: '259242039378444290', name: 'Road Runner', email: 'road.runner@acme.test', image: null }
	},
	{
		preset: Authentik as Case['preset'],
		id: 'authentik',
		name: 'Authentik',
		appIssuer: 'https://auth.acme.test/application/o/portal/',
		scope: 'openid profile email',
		claims: {
			iss: 'https://auth.acme.test/application/o/portal/',
			sub: 'f6b1c7a0e4d9b2a1c3e5f7a9b1d3e5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9',
			aud: 'PhgyZuWBzCbb8S4kX0ejVqrtZ3wUxQqw',
			exp: 1748950800,
			iat: 1748947200,
			auth_time: 1748947100,
			acr: 'goauthentik.io/providers/oauth2/default',
			email: 'akadmin@acme.test',
			email_verified: true,
			name: 'authentik Default Admin',
			given_name: 'authentik Default Admin',
			preferred_username: 'akadmin',
			nickname: 'akadmin',
			groups: ['authentik Admins']
		},
		user: {
			id: 'f6b1c7a0e4d9b2a1c3e5f7a9b1d3e5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9',
			name: 'authentik Default Admin',
			email: 'akadmin@acme.test',
			image: null
		}
	},
	{
		preset: LINE as Case['preset'],
		id: 'line',
		name: 'LINE',
		issuer: 'https://access.line.me',
		scope: 'openid profile email',
		client: { id_token_signed_response_alg: 'HS256' },
		claims: {
			iss: 'https://access.line.me',
			sub: 'U1234567890abcdef1234567890abcdef',
			aud: '1234567890',
			exp: 1748950800,
			iat: 1748947200,
			nonce: '0987654asdf',
			amr: ['pwd'],
			name: 'Taro Line',
			picture: 'https://profile.line-scdn.net/0h8pWWElvzZ19qLk3ywQYYCFZraTIdAGEXEh8oJhdTPQ',
			email: 'taro.line@acme.test'
		},
		user: {
			id: 'U1234567890abcdef1234567890abcdef',
			name: 'Taro Line',
			email: 'taro.line@acme.test',
			image: 'https://profile.line-scdn.net/0h8pWWElvzZ19qLk3ywQYYCFZraTIdAGEXEh8oJhdTPQ'
		}
	},
	{
		preset: Salesforce as Case['preset'],
		id: 'salesforce',
		name: 'Salesforce',
		issuer: 'https://login.salesforce.com',
		scope: 'openid profile email',
		idToken: false,
		// Userinfo, as Salesforce answers it.
		claims: {
			sub: 'https://login.salesforce.com/id/00Dxx0000001gPLEAY/005xx000001SwiUAAS',
			user_id: '005xx000001SwiUAAS',
			organization_id: '00Dxx0000001gPLEAY',
			preferred_username: 'admin@acme.test',
			nickname: 'admin',
			name: 'Marc Admin',
			email: 'admin@acme.test',
			email_verified: true,
			given_name: 'Marc',
			family_name: 'Admin',
			zoneinfo: 'America/Los_Angeles',
			photos: { picture: 'https://acme.file.force.com/profilephoto/005/F', thumbnail: 'https://acme.file.force.com/profilephoto/005/T' },
			picture: 'https://acme.file.force.com/profilephoto/005/F',
			active: true,
			user_type: 'STANDARD',
			language: 'en_US',
			locale: 'en_US',
			utcOffset: -28800000,
			updated_at: '2025-06-01T08:00:00Z'
		},
		user: {
			id: 'https://login.salesforce.com/id/00Dxx0000001gPLEAY/005xx000001SwiUAAS',
			name: 'Marc Admin',
			email: 'admin@acme.test',
			image: 'https://acme.file.force.com/profilephoto/005/F'
		}
	}
];

describe.each(cases)('$name preset', (c) => {
	it('is an OIDC provider discovered from its issuer, with its scope, checks and client settings', () => {
		const provider = normalized(c.preset(c.appIssuer ? { issuer: c.appIssuer } : {}));
		expect(provider).toMatchObject({ id: c.id, name: c.name, type: 'oidc', issuer: c.issuer ?? c.appIssuer });
		expect(scopeOf(provider)).toBe(c.scope);
		// Discovery gives the endpoints: none is hard-coded.
		expect(provider.authorization && typeof provider.authorization === 'object' ? provider.authorization.url : provider.authorization).toBeUndefined();
		expect(provider.token).toBeUndefined();
		expect(provider.userinfo).toBeUndefined();
		expect(provider.checks).toEqual(c.checks);
		expect(provider.client).toEqual(c.client);
		expect(provider.idToken).toBe(c.idToken);
	});

	it('maps realistic claims to the user', async () => {
		expect(await mappedUser(normalized(c.preset(c.appIssuer ? { issuer: c.appIssuer } : {})), c.claims)).toEqual(c.user);
	});
});

describe.each(cases.filter((c) => c.appIssuer))('$name preset, issuer from the app', (c) => {
	it('takes it from AUTH_<ID>_ISSUER, or the option', () => {
		const prefix = `AUTH_${c.id.toUpperCase()}_`;
		const env = { [`${prefix}ID`]: 'env-id', [`${prefix}SECRET`]: 'env-secret', [`${prefix}ISSUER`]: c.appIssuer };
		const [fromEnv] = resolve(env, c.preset as Provider);
		expect(fromEnv).toMatchObject({ clientId: 'env-id', clientSecret: 'env-secret', issuer: c.appIssuer });
		const [explicit] = resolve(env, c.preset({ issuer: 'https://other.acme.test' }) as Provider);
		expect(explicit?.issuer).toBe('https://other.acme.test');
	});
});

describe.each(cases.filter((c) => c.issuer))('$name preset, issuer of its own', (c) => {
	it('an issuer from the app wins over it (a sandbox, a private tenant)', () => {
		expect(normalized(c.preset({ issuer: 'https://sandbox.acme.test' })).issuer).toBe('https://sandbox.acme.test');
	});
});

describe('the presets without a profile() of their own', () => {
	it.each(cases)('$name: the default mapping fits, so there is none', (c) => {
		expect(c.preset({}).profile).toBeUndefined();
	});
});

describe('Twitch', () => {
	it('asks for its optional claims in the ID token by name', () => {
		expect(paramsOf(normalized(Twitch()).authorization)?.claims).toEqual({
			id_token: { email: null, picture: null, preferred_username: null }
		});
	});
});

describe('Cognito preset', () => {
	const ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI';
	/** An ID token of a pool without the `name` attribute (the default sign-up attributes). */
	const CLAIMS: CognitoProfile = {
		sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
		'cognito:groups': ['admins'],
		email_verified: true,
		iss: ISSUER,
		'cognito:username': 'jdoe',
		origin_jti: 'b2a1c3d4-e5f6-a7b8-c9d0-e1f2a3b4c5d6',
		aud: '3j1p2q3r4s5t6u7v8w9x0y1z2',
		event_id: 'c1d2e3f4-a5b6-c7d8-e9f0-a1b2c3d4e5f6',
		token_use: 'id',
		auth_time: 1748947100,
		exp: 1748950800,
		iat: 1748947200,
		jti: 'd1e2f3a4-b5c6-d7e8-f9a0-b1c2d3e4f5a6',
		email: 'jdoe@acme.test'
	};

	it('is an OIDC provider with the pool as its issuer', () => {
		expect(normalized(Cognito({ issuer: ISSUER }))).toMatchObject({ id: 'cognito', type: 'oidc', issuer: ISSUER });
	});

	it('names the user by the pool username when the pool has no name attribute (the default mapping would not)', async () => {
		const cognito = normalized(Cognito({ issuer: ISSUER }));
		expect(await mappedUser(cognito, CLAIMS)).toEqual({
			id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
			name: 'jdoe',
			email: 'jdoe@acme.test',
			image: null
		});
		expect((await defaultUser(CLAIMS)).name).toBeNull();
		expect((await mappedUser(cognito, { ...CLAIMS, name: 'Jane Doe' })).name).toBe('Jane Doe');
	});
});
