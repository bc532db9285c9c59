/**
 * The `form_post` callbacks the core reports (which providers post cross-site, from which origin)
 * and the warning the SvelteKit edge prints for each SvelteKit version. The probe itself runs in a
 * real SvelteKit 2 and 3 app: tests/sveltekit/published.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import type { Provider } from '../../src/lib/core/types.js';
import Apple from '../../src/lib/providers/apple.js';
import GitHub from '../../src/lib/providers/github.js';
import { formPostWarning } from '../../src/lib/sveltekit/form-post-check.js';

const SECRET = 'form-post-unit-secret-0123456789abcdef0123456789';

function callbacks(providers: Provider[], extra: { basePath?: string; redirectProxyUrl?: string } = {}) {
	return createAuthServer({ secret: SECRET, trustHost: true, providers, ...extra }, { env: {} }).formPostCallbacks;
}

describe('formPostCallbacks', () => {
	test('Apple: its issuer origin and callback path under the base path; query-mode providers are not listed', () => {
		expect(callbacks([Apple({ clientId: 'id', clientSecret: 'secret' }), GitHub({ clientId: 'id', clientSecret: 'secret' })], { basePath: '/base/auth' })).toEqual([
			{ providerId: 'apple', providerName: 'Apple', origin: 'https://appleid.apple.com', path: '/base/auth/callback/apple' }
		]);
	});

	test('an explicit authorization URL: its origin, and response_mode in its query counts too', () => {
		const provider: Provider = {
			id: 'corp',
			name: 'Corp',
			type: 'oauth',
			clientId: 'id',
			clientSecret: 'secret',
			issuer: 'https://issuer.corp.example',
			authorization: 'https://login.corp.example/authorize?response_mode=form_post',
			token: 'https://login.corp.example/token',
			userinfo: 'https://login.corp.example/me'
		};
		expect(callbacks([provider])).toEqual([{ providerId: 'corp', providerName: 'Corp', origin: 'https://login.corp.example', path: '/auth/callback/corp' }]);
	});

	test('a provider sent through a redirect proxy posts to the proxy: not listed', () => {
		expect(callbacks([Apple({ clientId: 'id', clientSecret: 'secret', redirectProxyUrl: 'https://proxy.example/auth' })])).toEqual([]);
		expect(callbacks([Apple({ clientId: 'id', clientSecret: 'secret' })], { redirectProxyUrl: 'https://proxy.example/auth' })).toEqual([]);
	});
});

describe('formPostWarning', () => {
	const callback = { providerId: 'apple', providerName: 'Apple', origin: 'https://appleid.apple.com', path: '/auth/callback/apple' };
	const trusted = "trustedOrigins: ['https://appleid.apple.com']";

	test.each([
		['3.2.0', `Trust that origin in vite.config.ts: sveltekit({ csrf: { ${trusted} } })`],
		['2.36.0', `Trust that origin in svelte.config.js: kit: { csrf: { ${trusted} } }`],
		['2.70.4', `Trust that origin in svelte.config.js: kit: { csrf: { ${trusted} } }`],
		['2.35.1', `Trust that origin SvelteKit 2.35.1 has no csrf.trustedOrigins: upgrade to 2.36 or later, then in svelte.config.js: kit: { csrf: { ${trusted} } }`]
	])('SvelteKit %s: where to trust the origin', (version, fix) => {
		const warning = formPostWarning(callback, version);
		expect(warning.startsWith('[kitauth][warn][form-post-csrf] Apple (apple) answers sign-ins with a form POST from https://appleid.apple.com')).toBe(true);
		expect(warning.endsWith(fix)).toBe(true);
	});
});
