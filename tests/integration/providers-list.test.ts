/**
 * One list of providers: the server API's `providers()`, `GET /providers` (Auth.js's shape, by id
 * with its URLs) and `listProviders(config)` give the same client-safe view, with no secrets.
 */
import { expect, test } from 'vitest';
import { createAuthServer, listProviders } from '../../src/lib/core/index.js';
import GitHub from '../../src/lib/providers/github.js';
import { ORIGIN, passwordProvider, setup } from './fixtures.js';

test('providers(), GET /providers and listProviders(config) list the same providers, no secrets', async () => {
	const s = setup({ providers: [GitHub({ clientId: 'gh-id', clientSecret: 'gh-secret-value' }), passwordProvider()] });
	const listed = createAuthServer(s.config).providers();
	expect(listed).toEqual(listProviders(s.config));
	expect(listed.map(({ id, type }) => [id, type])).toEqual([
		['github', 'oauth'],
		['credentials', 'credentials']
	]);
	expect(listed[1]).toMatchObject({ credentials: { username: { label: 'Username' } }, keptFields: ['username'] });

	const res = await s.client().get('providers');
	const body = (await res.json()) as Record<string, unknown>;
	expect(Object.values(body)).toEqual(
		listed.map(({ id, name, type }) => ({
			id,
			name,
			type,
			signinUrl: `${ORIGIN}/auth/signin/${id}`,
			callbackUrl: `${ORIGIN}/auth/callback/${id}`
		}))
	);
	expect(JSON.stringify([listed, body])).not.toContain('gh-secret-value');
});
