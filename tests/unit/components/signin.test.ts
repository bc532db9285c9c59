import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import SignIn from '../../../src/lib/components/SignIn.svelte';
import { SIGNIN_MESSAGES } from '../../../src/lib/core/pages/messages.js';
import type { ClientProvider } from '../../../src/lib/core/index.js';

const providers: ClientProvider[] = [
	{ id: 'credentials', name: 'Credentials', type: 'credentials', credentials: { email: { label: 'Email', type: 'email' } } }
];

/** The text of the component's alert, rendered on the server as a page would be. */
function alertText(error: string): string | undefined {
	const { body } = render(SignIn, { props: { providers, error } });
	const alert = /<div class="kitauth-alert[^"]*" role="alert">([\s\S]*?)<\/div>/.exec(body)?.[1];
	return alert?.replace(/<[^>]+>/g, '').trim();
}

describe('<SignIn> shows a message for ?error=', () => {
	test('a known value gets its own message', () => {
		expect(alertText('CredentialsSignin')).toBe(SIGNIN_MESSAGES.CredentialsSignin);
	});

	test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'default', 'NoSuchError'])(
		'%s (not a message of ours) gets the generic message',
		(value) => {
			expect(alertText(value)).toBe(SIGNIN_MESSAGES.default);
		}
	);
});
