/**
 * Identifier-first on the built-in sign-in page, through the real `Auth()` and libSQL: without
 * JavaScript, step 1 posts the address (with the CSRF token) to `/auth/signin` and the answer is
 * step 2, rendered, the same for a registered and an unknown address; the address never goes into
 * a URL; step 2's password form signs in; a form without the token, or with no address, is refused.
 */
import { parseHTML } from 'linkedom';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import Email from '../../src/lib/providers/email.js';
import Password from '../../src/lib/providers/password.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import type { Setup } from './fixtures.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const PASSWORD = 'correct horse battery staple';
const KNOWN = 'known@example.com';
const UNKNOWN = 'nobody-here@example.com';

let store: Store;
let sent: string[];
beforeEach(async () => {
	store = await openStore('memory');
	sent = [];
});
afterEach(() => store.close());

function app(): Setup {
	return dbSetup(store, {
		providers: [Password({ hasher: FAST }), Email({ sendVerificationRequest: async ({ identifier }) => void sent.push(identifier) })]
	});
}

const documentOf = async (res: Response) => parseHTML(await res.text()).document;

/** A form's fields as a browser would post them. */
function fieldsOf(form: Element): Record<string, string> {
	return Object.fromEntries([...form.querySelectorAll('input[name]')].map((input) => [input.getAttribute('name')!, input.getAttribute('value') ?? '']));
}

describe('the built-in page, without JavaScript', () => {
	test('step 1 is one address field posting to /auth/signin with the CSRF token', async () => {
		const client = app().client();
		const document = await documentOf(await client.get('signin', { query: { callbackUrl: '/home' } }));
		const step = document.querySelector('form[data-step="identifier"]')!;
		expect(step.getAttribute('action')).toBe('http://localhost:3000/auth/signin');
		expect(step.querySelector('input[name="csrfToken"]')?.getAttribute('value')).toBeTruthy();
		expect(step.querySelector('input[name="email"]')?.getAttribute('autocomplete')).toBe('username webauthn');
		expect(document.querySelectorAll('input[type="password"]')).toHaveLength(0);
	});

	test('posting the address renders step 2 (200, no redirect): the same page for a registered and an unknown address', async () => {
		const s = app();
		expect((await s.client().postForm('signup/password', { email: KNOWN, password: PASSWORD })).status).toBe(302);
		const client = s.client();
		const csrfToken = await client.csrfToken();
		const pageFor = async (email: string) => {
			const res = await client.post('signin', { form: { csrfToken, email, callbackUrl: '/home' } });
			expect(res.status).toBe(200);
			expect(res.headers.get('location')).toBeNull();
			return (await res.text()).replaceAll(email, 'ADDRESS');
		};
		const known = await pageFor(KNOWN);
		expect(known).toContain('data-step="method"');
		expect(known).toBe(await pageFor(UNKNOWN));
		expect(sent).toEqual([]);
	});

	test('step 2 signs in with the password, the address never in a URL', async () => {
		const s = app();
		await s.client().postForm('signup/password', { email: KNOWN, password: PASSWORD });
		const client = s.client();
		const step2 = await client.post('signin', { form: { csrfToken: await client.csrfToken(), email: KNOWN, callbackUrl: '/home' } });
		const document = await documentOf(step2);
		const form = document.querySelector('form[data-provider="password"]')!;
		const action = form.getAttribute('action')!;
		expect(action).toBe('http://localhost:3000/auth/callback/password');
		for (const link of [...document.querySelectorAll('[href],[action]')]) {
			expect(link.getAttribute('href') ?? link.getAttribute('action')).not.toContain('known');
		}
		expect(document.querySelector('[data-step="method"] a')?.getAttribute('href')).toBe('http://localhost:3000/auth/signin?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fhome');
		const res = await client.post(action, { form: { ...fieldsOf(form), password: PASSWORD } });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe('http://localhost:3000/home');
		expect(await client.session()).toMatchObject({ user: { email: KNOWN } });
	});

	test('step 2’s email choice sends the link to the address', async () => {
		const client = app().client();
		const document = await documentOf(await client.post('signin', { form: { csrfToken: await client.csrfToken(), email: UNKNOWN } }));
		const form = document.querySelector('form[data-provider="email"]')!;
		const res = await client.post(form.getAttribute('action')!, { form: fieldsOf(form) });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toContain('/auth/verify-request');
		expect(sent).toEqual([UNKNOWN]);
	});

	test('in the request’s language', async () => {
		const client = app().client();
		const res = await client.post('signin', { form: { csrfToken: await client.csrfToken(), email: KNOWN }, headers: { 'accept-language': 'de' } });
		const document = await documentOf(res);
		expect(document.querySelector('form[data-provider="password"] label')?.textContent?.trim()).toBe('Passwort');
		expect(document.querySelector('form[data-provider="email"] button')?.textContent?.trim()).toBe('Anmeldelink per E-Mail senden');
	});
});

describe('refused', () => {
	test('without the CSRF token: no step 2, the address nowhere in the answer', async () => {
		const client = app().client();
		await client.csrfToken();
		const res = await client.post('signin', { form: { email: KNOWN } });
		expect(res.status).not.toBe(200);
		expect(res.status).toBeLessThan(500);
		expect(res.headers.get('location') ?? '').not.toContain('known');
		expect(await res.text()).not.toContain('data-step="method"');
	});

	test.each([
		['not an address', 'not-an-address'],
		['markup', '"><script>alert(1)</script>@x'],
		['a header injection', 'a@example.com\r\nBcc: x@evil.example'],
		['too long', `${'a'.repeat(5000)}@example.com`],
		['empty', '']
	])('%s: 400, step 1 again with the message under the field, never markup, never a 500', async (_name, email) => {
		const client = app().client();
		const res = await client.post('signin', { form: { csrfToken: await client.csrfToken(), email } });
		expect(res.status).toBe(400);
		const html = await res.text();
		expect(html).not.toContain('<script>alert');
		const document = parseHTML(html).document;
		const input = document.querySelector('form[data-step="identifier"] input[name="email"]')!;
		expect(input.getAttribute('aria-invalid')).toBe('true');
		expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent?.trim()).toBe('Enter one email address, such as name@example.com.');
	});

	test('a JSON body with a non-text address: 400, not a 500', async () => {
		const client = app().client();
		const res = await client.post('signin', { json: { csrfToken: await client.csrfToken(), email: ['a@example.com', 'b@example.com'] } });
		expect(res.status).toBe(400);
	});
});

test('one method (Password alone): no identifier step, POST /signin without a provider goes to the page as before', async () => {
	const s = dbSetup(store, { providers: [Password({ hasher: FAST })] });
	const client = s.client();
	const res = await client.post('signin', { form: { csrfToken: await client.csrfToken(), email: KNOWN } });
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).not.toContain('known');
});
