import { describe, expect, it } from 'vitest';
import OAuth from '../../../src/lib/providers/oauth.js';
import type { Profile } from '../../../src/lib/core/types/models.js';
import { normalized, resolve, scopeOf, urlOf } from './helpers.js';

/** A typical non-OIDC `/me` answer: numeric id, its own field names. */
interface AcmeUser extends Profile {
	user_id: number;
	display_name: string;
	email: string;
	avatar: string | null;
}

const ME_JSON: AcmeUser = { user_id: 4711, display_name: 'Ada', email: 'ada@acme.test', avatar: 'https://cdn.acme.test/a/4711.png' };

const acme = (clientId?: string) =>
	OAuth<AcmeUser>({
		id: 'acme',
		clientId,
		name: 'Acme',
		authorization: { url: 'https://acme.test/oauth/authorize', params: { scope: 'user:read' } },
		token: 'https://acme.test/oauth/token',
		userinfo: 'https://api.acme.test/me',
		profile: (user) => ({ id: String(user.user_id), name: user.display_name, email: user.email, image: user.avatar })
	});

describe('generic OAuth 2 preset', () => {
	it('keeps the explicit endpoints; type oauth; no issuer (no discovery)', () => {
		const provider = normalized(acme());
		expect(provider).toMatchObject({ id: 'acme', name: 'Acme', type: 'oauth' });
		expect(provider.issuer).toBeUndefined();
		expect(urlOf(provider.authorization)).toBe('https://acme.test/oauth/authorize');
		expect(scopeOf(provider)).toBe('user:read');
		expect(urlOf(provider.token)).toBe('https://acme.test/oauth/token');
		expect(urlOf(provider.userinfo)).toBe('https://api.acme.test/me');
	});

	it('maps the profile with the app’s hook', async () => {
		expect(await normalized(acme()).profile?.(ME_JSON, {})).toEqual({
			id: '4711',
			name: 'Ada',
			email: 'ada@acme.test',
			image: 'https://cdn.acme.test/a/4711.png'
		});
	});

	it('env inference: AUTH_ACME_ID/_SECRET; explicit options beat env', () => {
		const env = { AUTH_ACME_ID: 'env-client', AUTH_ACME_SECRET: 'env-secret' };
		const [fromEnv] = resolve(env, acme());
		expect(fromEnv).toMatchObject({ clientId: 'env-client', clientSecret: 'env-secret' });
		const [explicit] = resolve(env, acme('explicit'));
		expect(explicit).toMatchObject({ clientId: 'explicit', clientSecret: 'env-secret' });
	});
});
