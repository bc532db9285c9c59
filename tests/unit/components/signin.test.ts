/**
 * The sign-in component's presentational part, rendered on the server as the built-in page and an
 * app's page render it, then queried as a DOM.
 */
import { createRawSnippet } from 'svelte';
import { describe, expect, test } from 'vitest';
import SignIn from '../../../src/lib/components/parts/SignIn.svelte';
import { providerIcon } from '../../../src/lib/components/icons.js';
import { listProviders, type ClientProvider } from '../../../src/lib/core/index.js';
import { SIGNIN_MESSAGES } from '../../../src/lib/shared/messages.js';
import Credentials from '../../../src/lib/providers/credentials.js';
import GitHub from '../../../src/lib/providers/github.js';
import GitLab from '../../../src/lib/providers/gitlab.js';
import Google from '../../../src/lib/providers/google.js';
import { renderDom, text } from './dom.js';

const HOSTILE = '<img src=x onerror=alert(1)>';
const credentials = Credentials({
	credentials: {
		email: { label: 'Email', type: 'email', autocomplete: 'username', required: true, onfocus: 'alert(1)' },
		password: { label: 'Password', type: 'password', autocomplete: 'current-password' }
	},
	authorize: () => null
});
const oauth = listProviders({
	providers: [GitHub({ clientId: 'i', clientSecret: 's' }), Google({ clientId: 'i', clientSecret: 's' }), GitLab({ clientId: 'i', clientSecret: 's' })]
});
const [creds] = listProviders({ providers: [credentials] }) as [ClientProvider];
const email: ClientProvider = { id: 'email', name: 'Email', type: 'email' };
const passkey: ClientProvider = { id: 'passkey', name: 'Passkey', type: 'webauthn' };
const all = [...oauth, passkey, email, creds];
/**
 * A credentials form with more than an email and a password: no method shares the email field,
 * so every form shows at once (the layout before identifier-first, `identifier-first.test.ts`).
 */
const [otpCreds] = listProviders({
	providers: [
		Credentials({
			credentials: { ...credentials.credentials, code: { label: 'One-time code', type: 'text', autocomplete: 'one-time-code' } },
			authorize: () => null
		})
	]
}) as [ClientProvider];
const separate = [...oauth, email, otpCreds];

/** The spec's sign-in error values (`?error=` on the sign-in page). */
const SPEC_SIGNIN_ERRORS = [
	'Signin',
	'OAuthSignin',
	'OAuthCallbackError',
	'OAuthCreateAccount',
	'EmailCreateAccount',
	'Callback',
	'OAuthAccountNotLinked',
	'EmailSignin',
	'CredentialsSignin',
	'SessionRequired'
];

describe('?error= messages', () => {
	test.each(SPEC_SIGNIN_ERRORS)('%s has its own message, shown in an alert that gets focus; the value itself is not shown', (error) => {
		expect(Object.hasOwn(SIGNIN_MESSAGES, error)).toBe(true);
		const { $, document } = renderDom(SignIn, { providers: all, error });
		const alert = $('[role="alert"]');
		expect(text(alert)).toBe(SIGNIN_MESSAGES[error]);
		expect(alert?.hasAttribute('autofocus')).toBe(true);
		expect(text(document.body)).not.toContain(error);
	});

	test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'default', 'NoSuchError', HOSTILE])(
		'%s (not a message of ours) gets the generic message, never rendered as HTML',
		(error) => {
			const { $, $$, body } = renderDom(SignIn, { providers: all, error });
			expect(text($('[role="alert"]'))).toBe(SIGNIN_MESSAGES.default);
			expect($$('img')).toHaveLength(0);
			expect(body).not.toContain('onerror');
		}
	);

	test('no error: no alert', () => {
		expect(renderDom(SignIn, { providers: all }).$('[role="alert"]')).toBeNull();
	});
});

describe('every provider type', () => {
	test('OAuth presets: a form per provider posting providerId and redirectTo, with the bundled icon', () => {
		const { $$ } = renderDom(SignIn, { providers: oauth, redirectTo: '/account' });
		const forms = $$('form');
		expect(forms).toHaveLength(3);
		for (const [i, form] of forms.entries()) {
			const provider = oauth[i]!;
			expect(form.getAttribute('action')).toBe('?/signIn');
			expect(form.getAttribute('method')).toBe('post');
			expect(form.querySelector('input[name="providerId"]')?.getAttribute('value')).toBe(provider.id);
			expect(form.querySelector('input[name="redirectTo"]')?.getAttribute('value')).toBe('/account');
			expect(text(form.querySelector('button'))).toBe(`Sign in with ${provider.name}`);
			// The icon is inline SVG from the bundled set: no image, no URL to fetch.
			expect(form.querySelector('svg path')?.getAttribute('d')).toBe(providerIcon(provider.id)!.path);
			expect(form.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
		}
		expect($$('img')).toHaveLength(0);
	});

	test("a provider's brand colours become the button's, made readable (GitLab's white text on orange becomes black)", () => {
		const { $$ } = renderDom(SignIn, { providers: oauth });
		const styles = $$('button').map((b) => b.getAttribute('style'));
		expect(styles[0]).toContain('--_fill: #24292f');
		expect(styles[0]).toContain('--_ink: #fff');
		// GitHub's dark button on the dark card gets an outline; on the light card its own colour is its edge.
		expect(styles[0]).toContain('--_line: light-dark(#24292f, #8a8f98)');
		// Google's white button on the white card gets an outline on the light scheme.
		expect(styles[1]).toContain('--_line: light-dark(#6b7280, #fff)');
		expect(styles[2]).toContain('--_ink: #000000');
	});

	test('a provider without a style or icon: a neutral button; its name is text, never HTML', () => {
		const custom: ClientProvider = { id: 'acme', name: HOSTILE, type: 'oidc' };
		const { $, $$, body } = renderDom(SignIn, { providers: [custom] });
		expect(text($('button'))).toBe(`Sign in with ${HOSTILE}`);
		expect($('button')?.getAttribute('style')).toBeNull();
		expect($$('img, svg')).toHaveLength(0);
		expect(body).not.toContain('<img src=x');
	});

	test('email: an email field (autocomplete email, required) posting like the others', () => {
		const { $ } = renderDom(SignIn, { providers: [email], redirectTo: '/next' });
		const form = $('form[data-provider="email"]')!;
		const input = form.querySelector('input[name="email"]')!;
		expect(input.getAttribute('type')).toBe('email');
		expect(input.getAttribute('autocomplete')).toBe('email');
		expect(input.hasAttribute('required')).toBe(true);
		expect(form.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('Email address');
		expect(form.querySelector('input[name="providerId"]')?.getAttribute('value')).toBe('email');
		expect(text(form.querySelector('button'))).toBe('Sign in with Email');
	});

	test('credentials: labelled fields from the definition, only safe attributes, "Sign in"', () => {
		const { $, body } = renderDom(SignIn, { providers: [creds] });
		const emailInput = $('input[name="email"]')!;
		expect($(`label[for="${emailInput.id}"]`)?.textContent).toBe('Email');
		expect(emailInput.getAttribute('type')).toBe('email');
		expect(emailInput.getAttribute('autocomplete')).toBe('username');
		expect(emailInput.hasAttribute('required')).toBe(true);
		expect(body).not.toContain('onfocus');
		expect($('input[name="password"]')?.getAttribute('type')).toBe('password');
		expect(text($('button'))).toBe('Sign in');
	});

	test('several form providers: each button names its provider; an "or" between buttons and forms', () => {
		const second: ClientProvider = { ...creds, id: 'staff', name: 'Staff login' };
		const { $$ } = renderDom(SignIn, { providers: [...oauth, creds, second] });
		expect($$('form.fields button').map(text)).toEqual(['Sign in with Credentials', 'Sign in with Staff login']);
		expect($$('.divider').map(text)).toEqual(['or']);
	});

	test('passkeys: through the `passkey` snippet, or else a plain form for the page script (disabled until it runs)', () => {
		const without = renderDom(SignIn, { providers: [passkey, otpCreds], basePath: '/api/auth' });
		const form = without.$('form[data-kitauth-passkey="passkey"]');
		expect(form?.getAttribute('data-base')).toBe('/api/auth');
		expect(form?.querySelector('button[type="submit"]')?.hasAttribute('disabled')).toBe(true);
		expect(without.$$('.divider')).toHaveLength(1);
		const button = createRawSnippet((provider: () => ClientProvider) => ({
			render: () => `<button type="button" class="my-passkey">Use ${provider().name}</button>`
		}));
		const withSnippet = renderDom(SignIn, { providers: [passkey, otpCreds], passkey: button });
		expect(withSnippet.$$('.my-passkey').map(text)).toEqual(['Use Passkey']);
		expect(withSnippet.$$('form[data-kitauth-passkey]')).toHaveLength(0);
		expect(withSnippet.$$('.divider')).toHaveLength(1);
	});

	test('no providers: says so', () => {
		expect(text(renderDom(SignIn, { providers: [] }).$('.empty'))).toBe('No sign-in methods are configured.');
	});
});

describe("a form action's failure", () => {
	test('a refusal shows on the form that was submitted, linked to it, keeping the email and never the password', () => {
		const form = {
			failed: true,
			fieldErrors: {},
			formErrors: [SIGNIN_MESSAGES.CredentialsSignin!],
			error: 'CredentialsSignin',
			providerId: 'credentials',
			values: { email: 'demo@example.com', password: 'leaked' }
		};
		const { $, $$ } = renderDom(SignIn, { providers: separate, form });
		const target = $('form[data-provider="credentials"]')!;
		const message = target.querySelector('[role="alert"]')!;
		expect(text(message)).toBe(SIGNIN_MESSAGES.CredentialsSignin);
		expect(target.getAttribute('aria-describedby')).toBe(message.id);
		expect(target.querySelector('button')?.getAttribute('aria-describedby')).toBe(message.id);
		expect(message.hasAttribute('autofocus')).toBe(true);
		expect($$('[role="alert"]')).toHaveLength(1);
		expect(target.querySelector('input[name="email"]')?.getAttribute('value')).toBe('demo@example.com');
		expect(target.querySelector('input[name="password"]')?.hasAttribute('value')).toBe(false);
		// The other form's email field keeps nothing of it.
		expect($('form[data-provider="email"] input[name="email"]')?.hasAttribute('value')).toBe(false);
	});

	test('a field error shows under its field, marks it invalid, describes it, and the field gets focus', () => {
		const form = { failed: true, fieldErrors: { email: ['Enter an email address.'] }, formErrors: [], providerId: 'email' };
		const { $ } = renderDom(SignIn, { providers: separate, form });
		const input = $('form[data-provider="email"] input[name="email"]')!;
		expect(input.getAttribute('aria-invalid')).toBe('true');
		const described = $(`#${input.getAttribute('aria-describedby')}`);
		expect(text(described)).toBe('Enter an email address.');
		expect(input.hasAttribute('autofocus')).toBe(true);
		expect($('[role="alert"]')).toBeNull();
	});

	test("a failure about no visible field (the spec's fieldErrors: providerId, redirectTo, …) shows above the forms", () => {
		const form = { failed: true, fieldErrors: { redirectTo: ['Must be a path on this site.'], providerId: [`Unknown provider "${HOSTILE}".`] }, formErrors: [] };
		const { $, $$ } = renderDom(SignIn, { providers: all, form, error: 'CredentialsSignin' });
		const alerts = $$('[role="alert"]');
		expect(alerts).toHaveLength(1);
		expect($$('[role="alert"] p').map(text)).toEqual(['Must be a path on this site.', `Unknown provider "${HOSTILE}".`]);
		expect(alerts[0]!.hasAttribute('autofocus')).toBe(true);
		expect($$('img')).toHaveLength(0);
		// The failure replaces the ?error= message.
		expect(text($('body'))).not.toContain(SIGNIN_MESSAGES.CredentialsSignin);
	});
});

test('`target`: plain forms to the REST endpoints (the built-in page), no providerId', () => {
	const target = (p: ClientProvider) => ({ action: `/auth/${p.type === 'credentials' ? 'callback' : 'signin'}/${p.id}`, fields: { csrfToken: 't0k', callbackUrl: '/back' } });
	const { $$ } = renderDom(SignIn, { providers: [...oauth, creds], target });
	expect($$('form').map((f) => f.getAttribute('action'))).toEqual(['/auth/signin/github', '/auth/signin/google', '/auth/signin/gitlab', '/auth/callback/credentials']);
	for (const form of $$('form')) {
		expect(form.querySelector('input[name="csrfToken"]')?.getAttribute('value')).toBe('t0k');
		expect(form.querySelector('input[name="callbackUrl"]')?.getAttribute('value')).toBe('/back');
		expect(form.querySelector('input[name="providerId"]')).toBeNull();
	}
});

test('theme: scheme, brand colours and logo on the component; its styles come with it', () => {
	const { $, head } = renderDom(SignIn, {
		providers: [creds],
		theme: { colorScheme: 'dark', brandColor: '#0b6e4f', buttonText: '#fefefe', logo: '/logo.svg' }
	});
	const root = $('[data-kitauth="signin"]')!;
	expect(root.getAttribute('data-scheme')).toBe('dark');
	expect(root.getAttribute('style')).toContain('--kitauth-brand: #0b6e4f');
	expect(root.getAttribute('style')).toContain('--kitauth-button-text: #fefefe');
	expect($('img.logo, img[class^="logo"]')?.getAttribute('src')).toBe('/logo.svg');
	expect(head).toMatch(/<style[^>]*>[^<]*\.kitauth\.svelte-[\w]+ \{/);
});

test('snippets replace the heading, the button labels, and add a footer', () => {
	const header = createRawSnippet(() => ({ render: () => '<h2 class="mine">Welcome back</h2>' }));
	const footer = createRawSnippet(() => ({ render: () => '<p class="foot">No account? Ask.</p>' }));
	const button = createRawSnippet((p: () => ClientProvider) => ({ render: () => `<span>Continue with ${p().name}</span>` }));
	const { $, $$ } = renderDom(SignIn, { providers: oauth, header, footer, button });
	expect($('h1')).toBeNull();
	expect(text($('.mine'))).toBe('Welcome back');
	expect(text($('.foot'))).toBe('No account? Ask.');
	expect($$('button').map(text)).toEqual(['Continue with GitHub', 'Continue with Google', 'Continue with GitLab']);
});
