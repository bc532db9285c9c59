/**
 * Identifier-first sign-in in the sign-in part, rendered on the server as the built-in page and an
 * app's page render it: which configurations get it, step 1 (one address field, the OAuth buttons
 * above one divider, one primary action), step 2 (the configured methods for the address, the same
 * for every address), refusals on the step they belong to, and the step logic of `shared/`.
 */
import { createRawSnippet } from 'svelte';
import { describe, expect, test } from 'vitest';
import SignIn from '../../../src/lib/components/parts/SignIn.svelte';
import { listProviders, type ClientProvider } from '../../../src/lib/core/index.js';
import { emailMethods, parseIdentifier } from '../../../src/lib/shared/identifier-first.js';
import Credentials from '../../../src/lib/providers/credentials.js';
import GitHub from '../../../src/lib/providers/github.js';
import Password from '../../../src/lib/providers/password.js';
import { renderDom, text } from './dom.js';

const [github, password] = listProviders({ providers: [GitHub({ clientId: 'i', clientSecret: 's' }), Password()] }) as [ClientProvider, ClientProvider];
const email: ClientProvider = { id: 'email', name: 'Email', type: 'email', keptFields: ['email'] };
const passkey: ClientProvider = { id: 'passkey', name: 'Passkey', type: 'webauthn', webauthn: { formFields: { email: { label: 'Email', type: 'email' } }, enableConditionalUI: true } };
const all = [github, password, email, passkey];
const primaries = (forms: Element[]) => forms.flatMap((form) => [...form.querySelectorAll('button.primary')]);

describe('when it applies', () => {
	test.each([
		['password + email', [password, email], true],
		['password + passkey', [password, passkey], true],
		['email + passkey', [email, passkey], true],
		['an app’s credentials of exactly email + password, with email', [listProviders({ providers: [Credentials({ credentials: { email: { type: 'email' }, password: { type: 'password' } }, authorize: () => null })] })[0]!, email], true],
		['password alone (one method: one step)', [password], false],
		['email + OAuth (nothing else shares the address)', [github, email], false],
		['two email providers', [email, { ...email, id: 'email2' }], false],
		['credentials with a third field, with email', [{ ...password, credentials: { ...password.credentials, code: { type: 'text' } } }, email], false]
	])('%s → %s', (_name, providers, applies) => {
		expect(emailMethods(providers as ClientProvider[]) !== null).toBe(applies);
		const { $$ } = renderDom(SignIn, { providers: providers as ClientProvider[] });
		expect($$('[data-step="identifier"]')).toHaveLength(applies ? 1 : 0);
	});
});

describe('step 1', () => {
	test('one email field for every method (passkey autofill too), the OAuth button above one divider, one primary "Continue"', () => {
		const { $, $$, body } = renderDom(SignIn, { providers: all, redirectTo: '/account' });
		const step = $('form[data-step="identifier"]')!;
		expect(step.getAttribute('method')).toBe('post');
		expect(step.getAttribute('action')).toBe('?/signIn');
		const inputs = $$('input:not([type="hidden"])');
		expect(inputs).toHaveLength(1);
		expect(inputs[0]!.getAttribute('autocomplete')).toBe('username webauthn');
		expect(inputs[0]!.getAttribute('type')).toBe('email');
		// No provider: the action answers step 2; where to go afterwards rides along.
		expect(step.querySelector('input[name="providerId"]')).toBeNull();
		expect(step.querySelector('input[name="redirectTo"]')?.getAttribute('value')).toBe('/account');
		expect($$('.divider')).toHaveLength(1);
		expect($$('form[data-provider="github"]')).toHaveLength(1);
		expect(body.indexOf('data-provider="github"')).toBeLessThan(body.indexOf('class="divider'));
		expect(body.indexOf('class="divider')).toBeLessThan(body.indexOf('data-step="identifier"'));
		expect(primaries($$('form')).map(text)).toEqual(['Continue']);
		expect($$('input[type="password"]')).toHaveLength(0);
		expect($$('form[data-kitauth-passkey]')).toHaveLength(0);
	});

	test('the built-in page (no `passkey` snippet): its script offers passkeys from the step-1 form', () => {
		const { $ } = renderDom(SignIn, { providers: all, basePath: '/api/auth', identify: { action: '/api/auth/signin', fields: { csrfToken: 't0k' } } });
		const step = $('form[data-step="identifier"]')!;
		expect(step.getAttribute('data-kitauth-passkey-autofill')).toBe('passkey');
		expect(step.getAttribute('data-base')).toBe('/api/auth');
		expect(step.getAttribute('action')).toBe('/api/auth/signin');
		expect(step.querySelector('input[name="csrfToken"]')?.getAttribute('value')).toBe('t0k');
	});

	test('a refused address: the message under the field, the field invalid and focused, what was typed kept', () => {
		const form = { failed: true, fieldErrors: { email: ['Enter one email address, such as name@example.com.'] }, formErrors: [], values: { email: 'not-an-address' } };
		const { $, $$ } = renderDom(SignIn, { providers: all, form });
		const input = $('form[data-step="identifier"] input[name="email"]')!;
		expect(input.getAttribute('aria-invalid')).toBe('true');
		expect(input.getAttribute('value')).toBe('not-an-address');
		expect(input.hasAttribute('autofocus')).toBe(true);
		expect(text($(`#${input.getAttribute('aria-describedby')}`))).toBe('Enter one email address, such as name@example.com.');
		expect($$('[role="alert"]')).toHaveLength(0);
	});
});

describe('step 2', () => {
	const step2 = (providers: ClientProvider[], address: string, extra: Record<string, unknown> = {}) =>
		renderDom(SignIn, { providers, form: { step: 'method' as const, email: address }, ...extra });

	test('the address with a way back, the password as the one primary action, then the email link and a passkey; no OAuth', () => {
		const { $, $$ } = step2(all, 'ada@example.com', { back: '/signin?redirectTo=%2Faccount' });
		expect(text($('[data-step="method"] .address'))).toBe('ada@example.com');
		const back = $('[data-step="method"] a')!;
		expect(text(back)).toBe('Use a different email address');
		expect(back.getAttribute('href')).toBe('/signin?redirectTo=%2Faccount');
		expect($$('form[data-provider="github"]')).toHaveLength(0);
		expect($$('form[data-step="identifier"]')).toHaveLength(0);
		const passwordForm = $('form[data-provider="password"]')!;
		expect(passwordForm.querySelector('input[name="providerId"]')?.getAttribute('value')).toBe('password');
		expect(passwordForm.querySelector('input[name="email"]')?.getAttribute('value')).toBe('ada@example.com');
		expect(passwordForm.querySelector('input[name="email"]')?.getAttribute('autocomplete')).toBe('username');
		expect(passwordForm.querySelector('input[type="password"]')?.getAttribute('autocomplete')).toBe('current-password');
		expect(primaries($$('form')).map(text)).toEqual(['Sign in']);
		expect(text($('form[data-provider="email"] button'))).toBe('Email me a sign-in link');
		expect($('form[data-provider="email"] input[name="email"]')?.getAttribute('value')).toBe('ada@example.com');
		// "Use a passkey" asks for any passkey: no address goes with it.
		const passkeyForm = $('form[data-kitauth-passkey="passkey"]')!;
		expect(text(passkeyForm.querySelector('button'))).toBe('Use a passkey');
		expect(passkeyForm.querySelectorAll('input:not([type="hidden"])')).toHaveLength(0);
		expect(passkeyForm.hasAttribute('data-autofill')).toBe(false);
	});

	test('without a password, the email link is the primary action', () => {
		const { $$ } = step2([email, passkey], 'ada@example.com');
		expect(primaries($$('form')).map(text)).toEqual(['Email me a sign-in link']);
	});

	test('a known and an unknown address get the same step 2 (only the address differs)', () => {
		const known = step2(all, 'known@example.com').body;
		const unknown = step2(all, 'nobody-here@example.com').body;
		expect(known.replaceAll('known@example.com', 'X')).toBe(unknown.replaceAll('nobody-here@example.com', 'X'));
	});

	test('the app’s passkey snippet gets the provider without fields and the step’s label', () => {
		const button = createRawSnippet((provider: () => ClientProvider, use?: () => { label: string } | undefined) => ({
			render: () => `<button type="button" class="my-passkey" data-fields="${Object.keys(provider().webauthn?.formFields ?? {}).length}">${use?.()?.label ?? 'none'}</button>`
		}));
		const { $ } = step2(all, 'ada@example.com', { passkey: button });
		expect(text($('.my-passkey'))).toBe('Use a passkey');
		expect($('.my-passkey')?.getAttribute('data-fields')).toBe('0');
	});

	test('a refused password shows step 2 again for the kept address, the message on the password form, never the password', () => {
		const form = { failed: true, fieldErrors: {}, formErrors: ['Sign in failed.'], providerId: 'password', values: { email: 'ada@example.com', password: 'leaked' } };
		const { $, $$, body } = renderDom(SignIn, { providers: all, form });
		expect(text($('[data-step="method"] .address'))).toBe('ada@example.com');
		const alert = $('form[data-provider="password"] [role="alert"]')!;
		expect(text(alert)).toBe('Sign in failed.');
		expect(alert.hasAttribute('autofocus')).toBe(true);
		expect($$('[role="alert"]')).toHaveLength(1);
		expect(body).not.toContain('leaked');
	});

	test('the address is text, never markup', () => {
		const { $$, body } = step2(all, '"><img src=x onerror=alert(1)>@example.com');
		expect($$('img')).toHaveLength(0);
		expect(body).not.toContain('<img src=x');
	});
});

describe('Password()’s field labels are in the page’s language', () => {
	test.each([
		['en', ['Email', 'Password']],
		['de', ['E-Mail-Adresse', 'Passwort']],
		['ar', ['البريد الإلكتروني', 'كلمة المرور']]
	])('%s', (locale, labels) => {
		const { $$ } = renderDom(SignIn, { providers: [password], locale });
		expect($$('form[data-provider="password"] label').map(text)).toEqual(labels);
	});

	test('step 2’s password field too', () => {
		const { $ } = renderDom(SignIn, { providers: all, form: { step: 'method' as const, email: 'a@example.com' }, locale: 'de' });
		expect(text($('form[data-provider="password"] label'))).toBe('Passwort');
		expect(text($('form[data-provider="password"] button'))).toBe('Anmelden');
	});
});

describe('parseIdentifier', () => {
	test.each([
		[['ada@example.com'], 'ada@example.com'],
		[['  ada@example.com \n'], 'ada@example.com']
	])('%j → %s', (values, expected) => expect(parseIdentifier(values)).toBe(expected));

	test.each([
		['nothing', []],
		['two values', ['a@example.com', 'b@example.com']],
		['a file', [new Blob(['x'])]],
		['empty', ['']],
		['no @', ['ada.example.com']],
		['two @', ['a@b@example.com']],
		['a space inside', ['ada lovelace@example.com']],
		['a control character', ['ada\u0000@example.com']],
		['a header injection', ['ada@example.com\r\nBcc: x@evil.example']],
		['markup', ['"><img src=x>@example.com']],
		['a list', ['a@example.com,b@example.com']],
		['too long', [`${'a'.repeat(400)}@example.com`]]
	])('%s → null', (_name, values) => expect(parseIdentifier(values)).toBeNull());
});

test('`identifierFirst={false}`: every form at once, as before', () => {
	const { $$ } = renderDom(SignIn, { providers: all, identifierFirst: false });
	expect($$('[data-step]')).toHaveLength(0);
	expect($$('form[data-provider]').map((form) => form.getAttribute('data-provider'))).toEqual(['github', 'email', 'password']);
	expect($$('form[data-kitauth-passkey]')).toHaveLength(1);
});
