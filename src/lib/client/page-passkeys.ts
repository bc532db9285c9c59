/**
 * The built-in sign-in page's passkey script (bundled with `@simplewebauthn/browser` into
 * `core/pages/passkey-script.generated.ts` by `scripts/build-passkey-script.ts`, and inlined into
 * the page: no code from a CDN). Each `form[data-kitauth-passkey]` runs a ceremony on submit, and
 * the first one with `data-autofill` also offers passkeys in the browser's autofill. Identifier-first's
 * step 1 (`form[data-kitauth-passkey-autofill]`, whose email field is the autofill's) offers them too.
 */
import { passkeyAutofillSupported, passkeysSupported, runCeremony } from './webauthn.js';

function values(form: HTMLFormElement): { query: Record<string, string>; post: Record<string, string> } {
	const query: Record<string, string> = {};
	const post: Record<string, string> = {};
	for (const [name, value] of new FormData(form)) {
		if (typeof value !== 'string') continue;
		if (name === 'csrfToken' || name === 'callbackUrl') post[name] = value;
		else if (value) query[name] = value;
	}
	return { query, post };
}

function start(form: HTMLFormElement): void {
	const base = form.dataset.base ?? '';
	const provider = form.dataset.kitauthPasskey ?? 'passkey';
	const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
	const status = form.querySelector<HTMLElement>('[role="status"]');
	const say = (text: string) => {
		if (status) status.textContent = text;
	};
	// The page's texts, in its language (the markup carries them; the script is the same for every page).
	if (!passkeysSupported()) {
		say(form.dataset.unsupported ?? 'This browser cannot use passkeys.');
		return;
	}
	if (button) button.disabled = false;
	const go = async (autofill: boolean) => {
		const { query, post } = values(form);
		const outcome = await runCeremony(base, provider, autofill ? { action: 'authenticate' } : query, post, autofill);
		if (outcome.url) {
			window.location.href = outcome.url;
			return;
		}
		// Autofill runs unasked (and a button's ceremony aborts it): its failures are not news.
		if (!autofill) say(form.dataset.failed ?? 'The passkey could not be used. Try again.');
	};
	form.addEventListener('submit', (event) => {
		event.preventDefault();
		say('');
		void go(false);
	});
	if (form.dataset.autofill === 'true') {
		void passkeyAutofillSupported().then((supported) => {
			if (supported) void go(true);
		});
	}
}

/** Identifier-first's step 1: passkeys in its email field's autofill; the form itself posts as it is. */
function autofillOnly(form: HTMLFormElement): void {
	const provider = form.dataset.kitauthPasskeyAutofill ?? 'passkey';
	void passkeyAutofillSupported().then(async (supported) => {
		if (!supported) return;
		const { post } = values(form);
		const outcome = await runCeremony(form.dataset.base ?? '', provider, { action: 'authenticate' }, post, true);
		if (outcome.url) window.location.href = outcome.url;
	});
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-kitauth-passkey]')) start(form);
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-kitauth-passkey-autofill]')) autofillOnly(form);
