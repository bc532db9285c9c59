/** Where a provider's sign-in form posts (shared/endpoints.ts): one rule for pages, client and server. */
import { describe, expect, it } from 'vitest';
import { flowOfType } from '../../src/lib/core/flows/index.js';
import { signInAction, signInEndpoint } from '../../src/lib/shared/endpoints.js';

const TYPES = ['oauth', 'oidc', 'email', 'credentials', 'webauthn'] as const;

describe('sign-in endpoints', () => {
	it('credentials and passkeys post to their callback, the others start at signin', () => {
		expect(TYPES.map((type) => [type, signInAction(type)])).toEqual([
			['oauth', 'signin'],
			['oidc', 'signin'],
			['email', 'signin'],
			['credentials', 'callback'],
			['webauthn', 'callback']
		]);
	});

	it('agrees with the flow table: a type posts to its callback exactly when its flow has no start', () => {
		for (const type of TYPES) expect(signInAction(type) === 'callback', type).toBe(flowOfType(type)!.start === undefined);
	});

	it('encodes the provider id into the path under the base', () => {
		expect(signInEndpoint('/auth', { id: 'github', type: 'oauth' })).toBe('/auth/signin/github');
		expect(signInEndpoint('https://app.example/base/auth', { id: 'a b/c', type: 'credentials' })).toBe(
			'https://app.example/base/auth/callback/a%20b%2Fc'
		);
	});
});
