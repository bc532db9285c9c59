import { afterAll, describe, expect, it } from 'vitest';
import GitLab, { type GitLabProfile } from '../../../src/lib/providers/gitlab.js';
import type { TokenSet } from '../../../src/lib/core/types/models.js';
import { normalized, resolve, scopeOf, serveJson, urlOf } from './helpers.js';

/** `GET /api/v4/user` with the read_user scope. */
const USER_JSON = {
	id: 1234567,
	username: 'jdoe',
	name: 'Jane Doe',
	state: 'active',
	locked: false,
	avatar_url: 'https://gitlab.com/uploads/-/system/user/avatar/1234567/avatar.png',
	web_url: 'https://gitlab.com/jdoe',
	created_at: '2017-05-03T09:21:44.512Z',
	bio: '',
	location: 'Berlin',
	public_email: null,
	linkedin: '',
	twitter: '',
	website_url: '',
	organization: 'Acme',
	job_title: 'Engineer',
	pronouns: null,
	bot: false,
	work_information: null,
	local_time: '11:02 AM',
	last_sign_in_at: '2025-06-01T08:00:12.001Z',
	confirmed_at: '2017-05-03T09:22:10.318Z',
	last_activity_on: '2025-06-03',
	email: 'jane.doe@acme.test',
	theme_id: 3,
	color_scheme_id: 1,
	projects_limit: 100000,
	current_sign_in_at: '2025-06-03T09:59:41.224Z',
	identities: [],
	can_create_group: true,
	can_create_project: true,
	two_factor_enabled: true,
	external: false,
	private_profile: false,
	commit_email: 'jane.doe@acme.test'
};

const TOKENS: TokenSet = { access_token: 'glpat-0123456789abcdef', token_type: 'bearer' };

const server = await serveJson({
	'/api/v4/user': () => ({ body: USER_JSON }),
	'/broken/api/v4/user': () => ({ status: 401, body: { message: '401 Unauthorized' } })
});
afterAll(() => server.close());

async function fetchProfile(baseUrl: string): Promise<GitLabProfile> {
	const provider = GitLab({ baseUrl });
	const request = typeof provider.userinfo === 'object' ? provider.userinfo.request : undefined;
	if (!request) throw new Error('GitLab has no userinfo.request');
	return request({ tokens: TOKENS, provider, fetch: globalThis.fetch });
}

describe('GitLab preset', () => {
	it('is an OAuth 2 provider on gitlab.com with the read_user scope', () => {
		const gitlab = normalized(GitLab());
		expect(gitlab).toMatchObject({ id: 'gitlab', name: 'GitLab', type: 'oauth' });
		expect(urlOf(gitlab.authorization)).toBe('https://gitlab.com/oauth/authorize');
		expect(scopeOf(gitlab)).toBe('read_user');
		expect(urlOf(gitlab.token)).toBe('https://gitlab.com/oauth/token');
		expect(urlOf(gitlab.userinfo)).toBe('https://gitlab.com/api/v4/user');
		expect(gitlab.style).toEqual({ bg: '#FC6D26', text: '#fff' });
	});

	it('self-managed: endpoints under baseUrl, which is not left on the config', () => {
		const gitlab = normalized(GitLab({ baseUrl: new URL('https://git.acme.test/') }));
		expect(urlOf(gitlab.authorization)).toBe('https://git.acme.test/oauth/authorize');
		expect(urlOf(gitlab.token)).toBe('https://git.acme.test/oauth/token');
		expect(urlOf(gitlab.userinfo)).toBe('https://git.acme.test/api/v4/user');
		expect(gitlab).not.toHaveProperty('baseUrl');
	});

	it('fetches /api/v4/user with the bearer token, hands the numeric id on as a string, and maps the user', async () => {
		const profile = await fetchProfile(server.origin);
		expect(server.requests.at(-1)).toEqual({ path: '/api/v4/user', authorization: `Bearer ${TOKENS.access_token}` });
		expect(profile).toMatchObject({ id: '1234567', username: 'jdoe' });
		expect(await GitLab().profile?.(profile, TOKENS)).toEqual({
			id: '1234567',
			name: 'Jane Doe',
			email: 'jane.doe@acme.test',
			image: 'https://gitlab.com/uploads/-/system/user/avatar/1234567/avatar.png'
		});
	});

	it('a refused /api/v4/user throws', async () => {
		await expect(fetchProfile(`${server.origin}/broken`)).rejects.toThrow(/401/);
	});

	it('app options win: scope, custom profile, id', async () => {
		const gitlab = normalized(
			GitLab({
				id: 'gitlab-acme',
				authorization: { params: { scope: 'read_user openid' } },
				profile: (user) => ({ id: user.id, name: user.username, email: user.commit_email ?? null })
			})
		);
		expect(gitlab.id).toBe('gitlab-acme');
		expect(scopeOf(gitlab)).toBe('read_user openid');
		expect(urlOf(gitlab.authorization)).toBe('https://gitlab.com/oauth/authorize');
		const profile = { ...USER_JSON, id: '1234567' } satisfies GitLabProfile;
		expect(await gitlab.profile?.(profile, TOKENS)).toEqual({ id: '1234567', name: 'jdoe', email: 'jane.doe@acme.test' });
	});

	it('env inference: AUTH_GITLAB_ID/_SECRET; explicit options beat env', () => {
		const env = { AUTH_GITLAB_ID: 'env-app-id', AUTH_GITLAB_SECRET: 'gloas-env' };
		const [fromEnv] = resolve(env, GitLab);
		expect(fromEnv).toMatchObject({ clientId: 'env-app-id', clientSecret: 'gloas-env' });
		const [explicit] = resolve(env, GitLab({ clientId: 'explicit-app-id' }));
		expect(explicit).toMatchObject({ clientId: 'explicit-app-id', clientSecret: 'gloas-env' });
	});
});
