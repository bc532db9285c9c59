import { afterAll, describe, expect, it } from 'vitest';
import Notion, { NOTION_API_VERSION, type NotionProfile } from '../../../src/lib/providers/notion.js';
import { defaultUser, mappedUser, normalized, paramsOf, requestProfile, serveJson, urlOf } from './helpers.js';

const OWNER: NotionProfile = {
	object: 'user',
	id: '6794760a-1f15-45cd-9c65-0dfe42f5135a',
	name: 'Aman Gupta',
	avatar_url: 'https://s3-us-west-2.amazonaws.com/public.notion-static.com/avatar.png',
	type: 'person',
	person: { email: 'aman@acme.test' }
};

/** `GET /v1/users/me` with a user-authorized token: the integration's bot, owned by the user. */
const BOT = {
	object: 'user',
	id: '16d84278-ab0e-484c-9bdd-b35da3bd8905',
	name: 'kitauth demo',
	avatar_url: null,
	type: 'bot',
	bot: { owner: { type: 'user', user: OWNER }, workspace_name: "Aman's Notion" },
	request_id: '9a1f3c5e-7b9d-4f1a-8c3e-5b7d9f1a3c5e'
};
const WORKSPACE_BOT = { ...BOT, bot: { owner: { type: 'workspace', workspace: true }, workspace_name: 'Acme' } };

const TOKENS = { access_token: 'secret_0123456789abcdef', token_type: 'bearer' };

const server = await serveJson({
	'/v1/users/me': () => ({ body: BOT }),
	'/workspace/v1/users/me': () => ({ body: WORKSPACE_BOT })
});
afterAll(() => server.close());

describe('Notion preset', () => {
	it('is an OAuth 2 provider where the user authorizes, with Basic client authentication', () => {
		const notion = normalized(Notion());
		expect(notion).toMatchObject({ id: 'notion', name: 'Notion', type: 'oauth' });
		expect(urlOf(notion.authorization)).toBe('https://api.notion.com/v1/oauth/authorize');
		expect(paramsOf(notion.authorization)).toEqual({ owner: 'user' });
		expect(urlOf(notion.token)).toBe('https://api.notion.com/v1/oauth/token');
		expect(notion.client).toEqual({ token_endpoint_auth_method: 'client_secret_basic' });
		expect(urlOf(notion.userinfo)).toBe('https://api.notion.com/v1/users/me');
	});

	it('fetches /v1/users/me with the bearer token and the API version, and takes the owner user', async () => {
		const profile = await requestProfile(normalized(Notion({ userinfo: { url: `${server.origin}/v1/users/me` } })), TOKENS);
		const request = server.received.at(-1);
		expect(request?.headers.authorization).toBe(`Bearer ${TOKENS.access_token}`);
		expect(request?.headers['notion-version']).toBe(NOTION_API_VERSION);
		expect(profile).toEqual(OWNER);
	});

	it('a token owned by a workspace, not a user, signs no one in', async () => {
		await expect(requestProfile(normalized(Notion({ userinfo: { url: `${server.origin}/workspace/v1/users/me` } })), TOKENS)).rejects.toThrow(
			/not owned by a user/
		);
	});

	it('maps the owner: the email is under person', async () => {
		expect(await mappedUser(normalized(Notion()), OWNER)).toEqual({
			id: '6794760a-1f15-45cd-9c65-0dfe42f5135a',
			name: 'Aman Gupta',
			email: 'aman@acme.test',
			image: 'https://s3-us-west-2.amazonaws.com/public.notion-static.com/avatar.png'
		});
		expect(await defaultUser(OWNER)).toMatchObject({ email: null, image: null });
	});
});
