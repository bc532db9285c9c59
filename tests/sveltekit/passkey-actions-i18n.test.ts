/**
 * The passkey form actions (`passkeys.actions()`) answer in the request's language: their
 * messages are shown to the user by `<PasskeyList>`, so they come from the catalogue like every
 * other text, in the locale the app's `i18n` config and `Accept-Language` choose.
 */
import { isActionFailure } from '@sveltejs/kit';
import { expect, test } from 'vitest';
import { SvelteKitAuth } from '../../src/lib/index.js';
import { credentials, deploymentEnv, recording, requestEvent } from './kit-event.js';

const SECRET = 'sveltekit-passkey-i18n-secret-0123456789abcdef';

deploymentEnv();

const app = () =>
	SvelteKitAuth({
		secret: SECRET,
		trustHost: true,
		providers: [credentials],
		logger: recording().logger,
		i18n: { messages: { nl: { 'passkeys.answer.which': 'Zeg welke passkey, en de nieuwe naam.', 'passkeys.answer.nameMissing': 'Geef de passkey een naam.' } } }
	});

/** What a refusal (`fail()`) carries; a success is none. */
const refusal = (result: unknown) => (isActionFailure(result) ? result.data : undefined);

const post = (fields: Record<string, string>, language: string) =>
	requestEvent('http://localhost/account', {
		method: 'POST',
		headers: { 'accept-language': language, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields)
	});

test('a refused rename answers in the language Accept-Language asks for', async () => {
	const { renamePasskey } = app().passkeys.actions();
	const which = await renamePasskey(post({}, 'nl-BE, en;q=0.5'));
	expect(refusal(which)).toMatchObject({ passkeyMessage: 'Zeg welke passkey, en de nieuwe naam.' });
	const unnamed = await renamePasskey(post({ id: 'p1', name: '  ' }, 'nl'));
	expect(refusal(unnamed)).toMatchObject({ passkeyMessage: 'Geef de passkey een naam.', passkeyId: 'p1' });
});

test("in a shipped catalogue's language (German)", async () => {
	const { renamePasskey } = app().passkeys.actions();
	const which = await renamePasskey(post({}, 'de-DE'));
	expect(refusal(which)).toMatchObject({ passkeyMessage: 'Geben Sie den Passkey und seinen neuen Namen an.' });
});

test('in English when the user asks for no language the app has', async () => {
	const { renamePasskey } = app().passkeys.actions();
	const which = await renamePasskey(post({}, 'xx'));
	expect(refusal(which)).toMatchObject({ passkeyMessage: 'Say which passkey, and its new name.' });
});
