import { form, type RemoteFormInput } from '$app/server';
import { type PasskeyActionData, type PasskeyFormScope, removePasskeyForm, renamePasskeyForm } from '../sveltekit/passkey-forms.js';
import { remoteAnswer } from './answer.js';
import { formDataOf } from './form-data.js';
import { requestAuth } from './request.js';

/** The request's passkeys, answered in its language, as the passkey form actions see them. */
async function scope(): Promise<PasskeyFormScope> {
	const auth = requestAuth();
	const [server, current] = await Promise.all([auth.server(), auth.current()]);
	return { passkeys: current.passkeys, i18n: server.i18n(auth.event.request), cookies: auth.event.cookies };
}

/** A passkey form on the form actions' code: its fields as they parse them (the `id` field is the passkey's). */
const passkeyForm = (run: (scope: PasskeyFormScope, fields: FormData) => ReturnType<typeof renamePasskeyForm>) =>
	form('unchecked', async (data: RemoteFormInput): Promise<PasskeyActionData> => {
		const fields = formDataOf(data, true);
		if (!fields.ok) return { passkeyMessage: fields.failure.formErrors[0]!, failed: true };
		return remoteAnswer(await run(await scope(), fields.form));
	});

/**
 * `<PasskeyList>`'s forms as remote forms, for an app's own remote module when removing should ask
 * for a sign-in more recent than kitauth's default (10 minutes):
 *
 * ```ts
 * // src/routes/account/passkeys.remote.ts
 * export const { renamePasskey, removePasskey } = passkeyForms({ maxAge: 300 });
 * ```
 *
 * `renamePasskey` (fields `id`, `name`) and `removePasskey` (field `id`) answer as
 * `passkeys.actions()` does, the answer being the form's `result` (a refusal with `failed`; a
 * removal without a recent sign-in with `reauthenticate: true`).
 */
export function passkeyForms(options: { maxAge?: number } = {}) {
	return {
		renamePasskey: passkeyForm(renamePasskeyForm),
		removePasskey: passkeyForm((scope, fields) => removePasskeyForm(scope, fields, options.maxAge))
	};
}
