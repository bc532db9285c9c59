import { afterEach, describe, expect, it, vi } from 'vitest';
import GitHub, { type GitHubEmail, type GitHubProfile } from '../../../src/lib/providers/github.js';
import type { TokenSet } from '../../../src/lib/core/types/models.js';
import { normalized, resolve, scopeOf, urlOf } from './helpers.js';

/** `GET https://api.github.com/user` for a user who keeps their email private. */
const USER_JSON = {
	login: 'octocat',
	id: 583231,
	node_id: 'MDQ6VXNlcjU4MzIzMQ==',
	avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4',
	gravatar_id: '',
	url: 'https://api.github.com/users/octocat',
	html_url: 'https://github.com/octocat',
	type: 'User',
	site_admin: false,
	name: 'The Octocat',
	company: '@github',
	blog: 'https://github.blog',
	location: 'San Francisco',
	email: null,
	hireable: null,
	bio: null,
	twitter_username: null,
	public_repos: 8,
	public_gists: 8,
	followers: 18911,
	following: 9,
	created_at: '2011-01-25T18:44:36Z',
	updated_at: '2025-06-03T11:02:21Z'
};

/** `GET https://api.github.com/user/emails`. */
const EMAILS_JSON: GitHubEmail[] = [
	{ email: '583231+octocat@users.noreply.github.com', primary: false, verified: true, visibility: null },
	{ email: 'octocat@github.com', primary: true, verified: true, visibility: 'private' },
	{ email: 'old-octocat@example.com', primary: false, verified: false, visibility: null }
];

const TOKENS: TokenSet = { access_token: 'gho_16C7e42F292c6912E7710c838347Ae178B4a', token_type: 'bearer', scope: 'read:user,user:email' };

/** GitHub's API cannot run here: this fetch serves its documented JSON and records what it was asked. */
function fakeGitHubApi(user: object, emails: { status: number; body: unknown }) {
	const calls: { url: string; authorization: string | null; userAgent: string | null }[] = [];
	const fetch: typeof globalThis.fetch = async (input, init) => {
		const url = input instanceof Request ? input.url : String(input);
		const headers = new Headers(init?.headers);
		calls.push({ url, authorization: headers.get('authorization'), userAgent: headers.get('user-agent') });
		if (url === 'https://api.github.com/user') return Response.json(user);
		if (url === 'https://api.github.com/user/emails') return Response.json(emails.body, { status: emails.status });
		return Response.json({ message: 'Not Found' }, { status: 404 });
	};
	return { fetch, calls };
}

async function fetchProfile(api: ReturnType<typeof fakeGitHubApi>): Promise<GitHubProfile> {
	const provider = GitHub();
	const request = typeof provider.userinfo === 'object' ? provider.userinfo.request : undefined;
	if (!request) throw new Error('GitHub has no userinfo.request');
	return request({ tokens: TOKENS, provider, fetch: api.fetch });
}

afterEach(() => vi.restoreAllMocks());

describe('GitHub preset', () => {
	it('is an OAuth 2 provider with explicit endpoints and GitHub’s scopes', () => {
		const github = normalized(GitHub());
		expect(github).toMatchObject({ id: 'github', name: 'GitHub', type: 'oauth', issuer: 'https://github.com/login/oauth' });
		expect(urlOf(github.authorization)).toBe('https://github.com/login/oauth/authorize');
		expect(scopeOf(github)).toBe('read:user user:email');
		expect(urlOf(github.token)).toBe('https://github.com/login/oauth/access_token');
		expect(urlOf(github.userinfo)).toBe('https://api.github.com/user');
		expect(github.style).toEqual({ bg: '#24292f', text: '#fff' });
	});

	it('private email: asks /user/emails with the given fetch and the token, and takes the primary verified address', async () => {
		const globalFetch = vi.spyOn(globalThis, 'fetch');
		const api = fakeGitHubApi(USER_JSON, { status: 200, body: EMAILS_JSON });
		const profile = await fetchProfile(api);
		expect(api.calls.map((call) => call.url)).toEqual(['https://api.github.com/user', 'https://api.github.com/user/emails']);
		for (const call of api.calls) {
			expect(call.authorization).toBe(`Bearer ${TOKENS.access_token}`);
			expect(call.userAgent).toBeTruthy();
		}
		expect(globalFetch).not.toHaveBeenCalled();
		expect(profile).toMatchObject({ id: '583231', login: 'octocat', email: 'octocat@github.com' });
		expect(await GitHub().profile?.(profile, TOKENS)).toEqual({
			id: '583231',
			name: 'The Octocat',
			email: 'octocat@github.com',
			image: 'https://avatars.githubusercontent.com/u/583231?v=4'
		});
	});

	it('a public email is used as is, without asking /user/emails', async () => {
		const api = fakeGitHubApi({ ...USER_JSON, email: 'public@octo.example' }, { status: 200, body: EMAILS_JSON });
		expect((await fetchProfile(api)).email).toBe('public@octo.example');
		expect(api.calls).toHaveLength(1);
	});

	it('no verified primary address → email null (an unverified address never names the user)', async () => {
		const unverifiedPrimary: GitHubEmail[] = [
			{ email: 'new@octo.example', primary: true, verified: false, visibility: 'private' },
			{ email: 'other@octo.example', primary: false, verified: true, visibility: null }
		];
		const api = fakeGitHubApi(USER_JSON, { status: 200, body: unverifiedPrimary });
		expect((await fetchProfile(api)).email).toBeNull();
	});

	it('/user/emails refused (token without user:email) → email null, sign-in still possible', async () => {
		const api = fakeGitHubApi(USER_JSON, { status: 404, body: { message: 'Not Found' } });
		const profile = await fetchProfile(api);
		expect(profile.email).toBeNull();
		expect(profile.id).toBe('583231');
	});

	it('a failed /user request throws instead of returning an error body as the profile', async () => {
		const fetch: typeof globalThis.fetch = async () => Response.json({ message: 'Bad credentials' }, { status: 401 });
		await expect(fetchProfile({ fetch, calls: [] })).rejects.toThrow(/401/);
	});

	it('name falls back to the login', async () => {
		const profile = { ...USER_JSON, id: '583231', name: null } satisfies GitHubProfile;
		expect((await GitHub().profile?.(profile, TOKENS))?.name).toBe('octocat');
	});

	it('app options win over the defaults: scope, profile, id', async () => {
		const custom = normalized(
			GitHub({
				id: 'github-work',
				authorization: { params: { scope: 'read:user user:email read:org' } },
				profile: (profile) => ({ id: profile.node_id, name: profile.login })
			})
		);
		expect(custom.id).toBe('github-work');
		expect(scopeOf(custom)).toBe('read:user user:email read:org');
		// Deep merge: the authorization URL survives a params-only override.
		expect(urlOf(custom.authorization)).toBe('https://github.com/login/oauth/authorize');
		const profile = { ...USER_JSON, id: '583231' } satisfies GitHubProfile;
		expect(await custom.profile?.(profile, TOKENS)).toEqual({ id: 'MDQ6VXNlcjU4MzIzMQ==', name: 'octocat' });
	});

	it('GitHub Enterprise Server: endpoints under the instance URL', () => {
		const ghes = normalized(GitHub({ enterprise: { baseUrl: 'https://github.acme.test/' } }));
		expect(urlOf(ghes.authorization)).toBe('https://github.acme.test/login/oauth/authorize');
		expect(urlOf(ghes.token)).toBe('https://github.acme.test/login/oauth/access_token');
		expect(urlOf(ghes.userinfo)).toBe('https://github.acme.test/api/v3/user');
		expect(ghes).not.toHaveProperty('enterprise');
	});

	it('env inference fills AUTH_GITHUB_ID/_SECRET into the preset function; explicit options beat env', () => {
		const env = { AUTH_GITHUB_ID: 'Iv1.env-id', AUTH_GITHUB_SECRET: 'env-secret' };
		const [fromEnv] = resolve(env, GitHub);
		expect(fromEnv).toMatchObject({ id: 'github', clientId: 'Iv1.env-id', clientSecret: 'env-secret' });
		expect(scopeOf(fromEnv!)).toBe('read:user user:email');
		const [explicit] = resolve(env, GitHub({ clientId: 'Iv1.explicit' }));
		expect(explicit).toMatchObject({ clientId: 'Iv1.explicit', clientSecret: 'env-secret' });
	});
});
