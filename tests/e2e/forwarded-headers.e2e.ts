/**
 * Hostile forwarded headers through the real stack (adapter-node reading `x-forwarded-proto`, as the
 * demo is configured, then SvelteKit, then kitauth): never a 5xx, never a session, and generated
 * URLs never point at the forged host. The core's own handling is in
 * `tests/integration/hostile-input.security.test.ts`.
 */
import { expect, test } from '@playwright/test';

const PATHS = ['/auth/signin', '/auth/session', '/auth/csrf', '/auth/providers', '/auth/error?error=Configuration', '/auth/signin/local', '/', '/signin'];

const HEADERS: Record<string, string>[] = [
	{ 'x-forwarded-proto': 'javascript' },
	{ 'x-forwarded-proto': 'https, http' },
	{ 'x-forwarded-proto': 'a b' },
	{ 'x-forwarded-host': 'evil.example' },
	{ 'x-forwarded-host': '[::1' },
	{ forwarded: 'for="[::1"; proto=javascript; host=evil.example' },
	{ 'x-forwarded-for': '999.999.999.999, ::ffff:zz' }
];

for (const headers of HEADERS) {
	test(`hostile ${JSON.stringify(headers)}: below 500, no session`, async ({ request }) => {
		for (const path of PATHS) {
			const res = await request.get(path, { headers, maxRedirects: 0 });
			expect(res.status(), path).toBeLessThan(500);
			const cookies = res.headersArray().filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value);
			expect(cookies.filter((c) => /session-token=[^;]/.test(c)), path).toEqual([]);
			const location = res.headers()['location'] ?? '';
			expect(location, path).not.toContain('evil.example');
		}
	});
}
