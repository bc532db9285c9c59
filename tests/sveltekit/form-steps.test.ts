/**
 * The passkey and two-factor form actions answer from the steps kitauth/remote's forms run too
 * (sveltekit/passkey-forms.ts, two-factor-forms.ts): called directly, a step answers the status
 * and data the action answers with `fail()`, in the request's language.
 */
import { isActionFailure } from '@sveltejs/kit';
import { expect, test } from 'vitest';
import { SvelteKitAuth } from '../../src/lib/index.js';
import { createCurrentSession } from '../../src/lib/sveltekit/current.js';
import { createServerGetter } from '../../src/lib/sveltekit/options.js';
import { removePasskeyForm, renamePasskeyForm } from '../../src/lib/sveltekit/passkey-forms.js';
import { enableTwoFactorForm, verifyTwoFactorForm } from '../../src/lib/sveltekit/two-factor-forms.js';
import { credentials, deploymentEnv, recording, requestEvent } from './kit-event.js';

const SECRET = 'sveltekit-form-steps-secret-0123456789abcdef';

deploymentEnv();

const config = () => ({ secret: SECRET, trustHost: true, providers: [credentials], logger: recording().logger });

const post = (fields: Record<string, string>, language = 'en') =>
	requestEvent('http://localhost/account', {
		method: 'POST',
		headers: { 'accept-language': language, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields)
	});

const form = (fields: Record<string, string>) => {
	const data = new FormData();
	for (const [name, value] of Object.entries(fields)) data.append(name, value);
	return data;
};

/** The request as the steps see it, made the way kitauth/remote makes it (the handle's getters). */
async function scopes(language = 'en') {
	const event = post({}, language);
	const getServer = createServerGetter(config());
	const current = createCurrentSession(getServer);
	const server = await getServer(event);
	return {
		passkeys: { passkeys: (await current(event)).passkeys, i18n: server.i18n(event.request), cookies: event.cookies },
		twoFactor: { event, server, twoFactor: async () => (await current(event)).twoFactor }
	};
}

/** What an action answered, as status and data (200 for news). */
const asAnswer = (result: unknown) => (isActionFailure(result) ? { status: result.status, data: result.data } : { status: 200, data: result });

test('passkeys: a rename without a name and a removal of no passkey of the user\'s answer as the actions do', async () => {
	const actions = SvelteKitAuth(config()).passkeys.actions();
	const { passkeys } = await scopes('de');
	const unnamed = await renamePasskeyForm(passkeys, form({ id: 'p1', name: '  ' }));
	expect(unnamed).toEqual({ status: 400, data: { passkeyMessage: expect.stringMatching(/Passkey/), failed: true, action: 'rename', passkeyId: 'p1' } });
	expect(asAnswer(await actions.renamePasskey(post({ id: 'p1', name: '  ' }, 'de')))).toEqual(unnamed);

	const signedOut = await removePasskeyForm(passkeys, form({ id: 'p1' }), 60);
	expect(signedOut).toMatchObject({ status: 404, data: { failed: true, action: 'remove', passkeyId: 'p1' } });
	expect(asAnswer(await actions.removePasskey(post({ id: 'p1' }, 'de')))).toEqual(signedOut);
});

test('two-factor: a code with no sign-in waiting, and turning it on where it is not configured, answer as the actions do', async () => {
	const actions = SvelteKitAuth(config()).twoFactor.actions();
	const { twoFactor } = await scopes();
	const nothingWaiting = await verifyTwoFactorForm(twoFactor, form({ code: '123456' }));
	expect(nothingWaiting).toEqual({
		status: 400,
		data: { failed: true, fieldErrors: {}, formErrors: ['Your sign-in expired before the second step. Sign in again.'], expired: true }
	});
	expect(asAnswer(await actions.verifyTwoFactor(post({ code: '123456' })))).toEqual(nothingWaiting);

	const unavailable = await enableTwoFactorForm(twoFactor, form({ code: '123456' }));
	expect(unavailable).toEqual({ status: 404, data: { failed: true, fieldErrors: {}, formErrors: ['Two-step verification is not available on this site.'] } });
	expect(asAnswer(await actions.enableTwoFactor(post({ code: '123456' })))).toEqual(unavailable);
});
