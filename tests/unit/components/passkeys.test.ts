/**
 * The passkey parts as the server renders them: the passkey button's markup (which the app's
 * `PasskeyButton` drives, and the built-in page renders as `PasskeyForm`) and the passkey list.
 */
import { createRawSnippet } from 'svelte';
import { describe, expect, test } from 'vitest';
import PasskeyButton from '../../../src/lib/components/parts/PasskeyButton.svelte';
import PasskeyForm from '../../../src/lib/components/parts/PasskeyForm.svelte';
import PasskeyList from '../../../src/lib/components/parts/PasskeyList.svelte';
import { en } from '../../../src/lib/i18n/index.js';
import type { PasskeyInfo } from '../../../src/lib/core/index.js';
import { renderDom, text } from './dom.js';

const HOSTILE = '<img src=x onerror=alert(1)>';
const email = { email: { label: 'Email (optional)', type: 'email', autocomplete: 'username webauthn', required: true, onfocus: 'alert(1)' } };

describe('the passkey button part', () => {
	test('the fields through the kit (optional whatever the definition says, unsafe attributes dropped), then the button', () => {
		const { $, $$, body } = renderDom(PasskeyButton, { fields: email, label: 'Continue with a passkey' });
		const form = $('form.kitauth-passkey');
		expect(form?.closest('[data-kitauth="passkey"]')).not.toBeNull();
		// In an app the component runs the ceremony: the form posts nowhere by itself.
		expect(form?.hasAttribute('action')).toBe(false);
		const input = $('input[name="email"]');
		expect(text($(`label[for="${input?.getAttribute('id')}"]`))).toBe('Email (optional)');
		expect(input?.getAttribute('autocomplete')).toBe('username webauthn');
		expect(input?.hasAttribute('required')).toBe(false);
		expect(body).not.toContain('onfocus');
		expect($$('button').map(text)).toEqual(['Continue with a passkey']);
		expect($('button')?.getAttribute('type')).toBe('submit');
	});

	test('until a script runs it (ready=false) the button is disabled, and without JavaScript a note says why', () => {
		const waiting = renderDom(PasskeyButton, { ready: false });
		expect(waiting.$('button')?.hasAttribute('disabled')).toBe(true);
		expect(waiting.body).toMatch(/<noscript[^>]*>[\s\S]*Passkeys need JavaScript, which is off in this browser\.[\s\S]*<\/noscript>/);
		const running = renderDom(PasskeyButton, {});
		expect(running.$('button')?.hasAttribute('disabled')).toBe(false);
		expect(running.body).not.toContain('<noscript');
		expect(text(running.$('button'))).toBe(en['passkey.signIn']);
	});

	test('the ceremony in progress: the button and form are busy, and the polite status says what it waits for', () => {
		const { $ } = renderDom(PasskeyButton, { pending: true });
		expect($('button')?.getAttribute('aria-busy')).toBe('true');
		expect($('form')?.getAttribute('aria-busy')).toBe('true');
		const status = $('[role="status"]');
		expect(status?.getAttribute('aria-live')).toBe('polite');
		expect(text(status)).toBe(en['passkey.pending']);
		expect(renderDom(PasskeyButton, { status: en['passkey.unsupported'] }).$('[role="status"]')?.textContent).toBe(en['passkey.unsupported']);
		expect(renderDom(PasskeyButton, {}).$('[role="status"]')?.textContent).toBe('');
	});

	test('a failure: an alert (text, never HTML) that the form and its button point to, and that focus can move to', () => {
		const { $, $$ } = renderDom(PasskeyButton, { error: `Closed. ${HOSTILE}` });
		const alert = $('[role="alert"]');
		expect(text(alert)).toBe(`Closed. ${HOSTILE}`);
		expect($$('img')).toHaveLength(0);
		expect(alert?.getAttribute('tabindex')).toBe('-1');
		expect(alert?.hasAttribute('data-kitauth-error')).toBe(true);
		const id = alert?.getAttribute('id');
		expect(id).toBeTruthy();
		expect($('form')?.getAttribute('aria-describedby')).toBe(id);
		expect($('button')?.getAttribute('aria-describedby')).toBe(id);
		expect(renderDom(PasskeyButton, {}).$('[role="alert"]')).toBeNull();
	});

	test("a field's error goes under that field, which is marked invalid and described by it", () => {
		const { $ } = renderDom(PasskeyButton, { fields: email, fieldErrors: { email: [en['passkey.emailNeeded']] } });
		const input = $('input[name="email"]');
		expect(input?.getAttribute('aria-invalid')).toBe('true');
		const described = input?.getAttribute('aria-describedby');
		expect(text($(`[id="${described}"]`))).toBe(en['passkey.emailNeeded']);
		expect($('[role="alert"]')).toBeNull();
	});

	test('the children snippet replaces the label', () => {
		const label = createRawSnippet(() => ({ render: () => '<span class="mine">Use your phone</span>' }));
		const { $ } = renderDom(PasskeyButton, { label: 'ignored', children: label });
		expect(text($('button'))).toBe('Use your phone');
	});
});

describe('the built-in page renders the same part (PasskeyForm)', () => {
	test("the page script's hooks: the provider, the base path, autofill, hidden fields, a disabled button, the status", () => {
		const { $, $$ } = renderDom(PasskeyForm, {
			provider: { id: 'passkey', name: 'Passkey', type: 'webauthn', webauthn: { formFields: email, enableConditionalUI: true } },
			target: { action: '/auth/callback/passkey', fields: { csrfToken: 't', callbackUrl: '/account' } },
			basePath: '/auth',
			autofill: true
		});
		const form = $('form[data-kitauth-passkey="passkey"]');
		expect(form?.classList.contains('kitauth-passkey')).toBe(true);
		expect(form?.getAttribute('data-base')).toBe('/auth');
		expect(form?.getAttribute('data-autofill')).toBe('true');
		expect(form?.getAttribute('method')).toBe('post');
		expect(form?.getAttribute('action')).toBe('/auth/callback/passkey');
		expect($$('input[type="hidden"]').map((i) => [i.getAttribute('name'), i.getAttribute('value')])).toEqual([
			['csrfToken', 't'],
			['callbackUrl', '/account']
		]);
		expect(form?.querySelector('input[name="email"]')?.getAttribute('autocomplete')).toBe('username webauthn');
		const button = form?.querySelector('button[type="submit"]');
		expect(text(button)).toBe('Continue with a passkey');
		expect(button?.hasAttribute('disabled')).toBe(true);
		expect(form?.querySelector('[role="status"]')).not.toBeNull();
	});

	test('without autofill: no data-autofill', () => {
		const { $ } = renderDom(PasskeyForm, { provider: { id: 'key', name: 'Security key', type: 'webauthn' }, target: { action: '/x' }, basePath: '/auth' });
		expect($('form')?.hasAttribute('data-autofill')).toBe(false);
		expect(text($('button'))).toBe('Continue with Security key');
	});
});

const passkey = (id: string, name: string, deviceType: PasskeyInfo['deviceType'], createdAt: string | null, lastUsedAt: string | null): PasskeyInfo => ({
	id,
	provider: 'passkey',
	name,
	createdAt,
	lastUsedAt,
	deviceType,
	backedUp: deviceType === 'multiDevice',
	transports: []
});
const laptop = passkey('bGFwdG9w', 'Work laptop', 'multiDevice', '2026-02-02T09:30:00.000Z', '2026-03-14T07:30:00.000Z');
const key = passkey('eXViaWtleQ', 'YubiKey', 'singleDevice', '2026-03-02T23:30:00.000Z', null);
const old = passkey('b2xk', HOSTILE, 'singleDevice', null, null);

describe('the passkey list part', () => {
	test('each passkey: its name in a rename form, a remove form, when it was added and used, synced or on one device', () => {
		const { $, $$ } = renderDom(PasskeyList, { passkeys: [laptop, key] });
		expect($('h2')?.textContent).toBe('Passkeys');
		const list = $('ul[data-testid="passkeys"]');
		expect(list?.getAttribute('aria-labelledby')).toBe($('h2')?.getAttribute('id'));
		const rows = $$('li');
		expect(rows).toHaveLength(2);
		const [first, second] = rows as [Element, Element];
		const rename = first.querySelector('form.rename');
		expect(rename?.getAttribute('action')).toBe('?/renamePasskey');
		expect(rename?.getAttribute('method')).toBe('post');
		expect(rename?.querySelector('input[name="id"]')?.getAttribute('value')).toBe(laptop.id);
		const name = rename?.querySelector('input[name="name"]');
		expect(name?.getAttribute('value')).toBe('Work laptop');
		expect(name?.hasAttribute('required')).toBe(true);
		expect(name?.getAttribute('maxlength')).toBe('64');
		expect(text($(`label[for="${name?.getAttribute('id')}"]`))).toBe('Name of passkey');
		expect(text(rename?.querySelector('button'))).toBe('Rename passkey Work laptop');
		const remove = first.querySelector('form.remove');
		expect(remove?.getAttribute('action')).toBe('?/removePasskey');
		expect(remove?.querySelector('input[name="id"]')?.getAttribute('value')).toBe(laptop.id);
		expect(text(remove?.querySelector('button'))).toBe('Remove passkey Work laptop');
		expect(text(first.querySelector('.details'))).toBe('Synced Added Feb 2, 2026 · last used Mar 14, 2026');
		expect(first.querySelector('time')?.getAttribute('datetime')).toBe(laptop.createdAt);
		// Dates in the given time zone (UTC by default), so server and browser agree.
		expect(text(second.querySelector('.details'))).toBe('On one device Added Mar 2, 2026 · never used');
		expect(text(renderDom(PasskeyList, { passkeys: [key], timeZone: 'Asia/Tokyo' }).$('.details'))).toBe('On one device Added Mar 3, 2026 · never used');
	});

	test('actions and heading are configurable; a name is text, never HTML', () => {
		const { $, $$, body } = renderDom(PasskeyList, { passkeys: [old], renameAction: '/me?/rename', removeAction: '/me?/remove', heading: 'Your keys', headingLevel: 3 });
		expect(text($('h3'))).toBe('Your keys');
		expect($('form.rename')?.getAttribute('action')).toBe('/me?/rename');
		expect($('form.remove')?.getAttribute('action')).toBe('/me?/remove');
		expect($$('img')).toHaveLength(0);
		expect(body).not.toContain('<img src=x');
		expect($('input[name="name"]')?.getAttribute('value')).toBe(HOSTILE);
		expect(text($('.details'))).toBe('On one device never used');
	});

	test('no passkeys: says so', () => {
		expect(text(renderDom(PasskeyList, { passkeys: [] }).$('li.empty'))).toBe('No passkeys yet.');
	});

	test('news (a rename or removal went through) is a status, not an alert', () => {
		const { $ } = renderDom(PasskeyList, { passkeys: [laptop], form: { passkeyMessage: 'Passkey renamed.', action: 'rename', passkeyId: laptop.id } });
		expect(text($('[role="status"]'))).toBe('Passkey renamed.');
		expect($('[role="alert"]')).toBeNull();
		expect($('[aria-invalid]')).toBeNull();
	});

	test('a refused name shows under that passkey\u2019s field: marked invalid, described, focused; the others untouched', () => {
		const { $, $$ } = renderDom(PasskeyList, {
			passkeys: [laptop, key],
			form: { passkeyMessage: 'Give the passkey a name.', failed: true, action: 'rename', passkeyId: key.id }
		});
		const invalid = $$('[aria-invalid="true"]');
		expect(invalid).toHaveLength(1);
		const field = invalid[0]!;
		expect(field.closest('li')?.querySelector('input[name="id"]')?.getAttribute('value')).toBe(key.id);
		expect(text($(`[id="${field.getAttribute('aria-describedby')}"]`))).toBe('Give the passkey a name.');
		expect(field.hasAttribute('autofocus')).toBe(true);
		expect($('[role="alert"]')).toBeNull();
		expect($('[role="status"]')).toBeNull();
	});

	test('a refused removal (the last way to sign in) is an alert above the list that gets focus', () => {
		const { $ } = renderDom(PasskeyList, {
			passkeys: [laptop],
			form: { passkeyMessage: 'This is your only way to sign in: add another before removing it.', failed: true, action: 'remove', passkeyId: laptop.id }
		});
		const alert = $('[role="alert"]');
		expect(text(alert)).toBe('This is your only way to sign in: add another before removing it.');
		expect(alert?.hasAttribute('autofocus')).toBe(true);
		expect($('[aria-invalid]')).toBeNull();
		// A refused rename of a passkey no longer listed cannot go under its field: above the list too.
		const gone = renderDom(PasskeyList, { passkeys: [laptop], form: { passkeyMessage: 'That passkey could not be renamed.', failed: true, action: 'rename', passkeyId: 'gone' } });
		expect(text(gone.$('[role="alert"]'))).toBe('That passkey could not be renamed.');
	});

	test('a removal that needs a recent sign-in: a prompt, named and described, focused, with the way to confirm', () => {
		const confirm = createRawSnippet(() => ({ render: () => '<button type="button" class="confirm">Confirm with a passkey</button>' }));
		const { $ } = renderDom(PasskeyList, {
			passkeys: [laptop, key],
			form: { passkeyMessage: 'Confirm it is you to remove a passkey.', failed: true, action: 'remove', passkeyId: key.id, reauthenticate: true },
			confirm
		});
		const prompt = $('[role="alertdialog"]');
		expect(text($(`[id="${prompt?.getAttribute('aria-labelledby')}"]`))).toBe('Confirm it is you to remove a passkey.');
		expect(text($(`[id="${prompt?.getAttribute('aria-describedby')}"]`))).toBe('For your security, confirm it is you, then try again.');
		expect(prompt?.hasAttribute('autofocus')).toBe(true);
		expect(prompt?.hasAttribute('data-kitauth-error')).toBe(true);
		expect(prompt?.querySelector('button.confirm')).not.toBeNull();
		// The prompt says it all: no second alert.
		expect($('[role="alert"]')).toBeNull();
		expect(renderDom(PasskeyList, { passkeys: [laptop] }).$('[role="alertdialog"]')).toBeNull();
	});

	test('snippets: `passkey` replaces a passkey\u2019s details, `add` goes below the list (none: no way to add)', () => {
		const details = createRawSnippet((info: () => PasskeyInfo) => ({ render: () => `<span class="mine">${info().transports.length} transports</span>` }));
		const add = createRawSnippet(() => ({ render: () => '<button type="button" class="add-it">Add a passkey</button>' }));
		const { $, $$ } = renderDom(PasskeyList, { passkeys: [laptop, key], passkey: details, add });
		expect($$('.details').map(text)).toEqual(['0 transports', '0 transports']);
		expect($$('.badge')).toHaveLength(0);
		expect($('.add .add-it')).not.toBeNull();
		expect(renderDom(PasskeyList, { passkeys: [laptop] }).$('.add')).toBeNull();
	});
});
