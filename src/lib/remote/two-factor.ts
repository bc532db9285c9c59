import { form, type RemoteFormInput } from '$app/server';
import {
	disableTwoFactorForm,
	enableTwoFactorForm,
	forgetTwoFactorDevicesForm,
	regenerateBackupCodesForm,
	type TwoFactorActionData,
	type TwoFactorFormScope,
	verifyTwoFactorForm
} from '../sveltekit/two-factor-forms.js';
import { remoteAnswer } from './answer.js';
import { formDataOf } from './form-data.js';
import { requestAuth } from './request.js';

/** The request as the two-factor form actions see it. */
async function scope(): Promise<TwoFactorFormScope> {
	const auth = requestAuth();
	return { event: auth.event, server: await auth.server(), twoFactor: async () => (await auth.current()).twoFactor };
}

/** A two-factor form on the form actions' code, its fields as they parse them. */
const twoFactorForm = (run: (scope: TwoFactorFormScope, fields: FormData) => ReturnType<typeof verifyTwoFactorForm>) =>
	form('unchecked', async (data: RemoteFormInput): Promise<TwoFactorActionData> => {
		const fields = formDataOf(data);
		if (!fields.ok) return { failed: true, fieldErrors: {}, formErrors: fields.failure.formErrors };
		return remoteAnswer(await run(await scope(), fields.form));
	});

/**
 * The two-factor components' forms as remote forms, for an app's own remote module when turning
 * two-factor off and making new backup codes should ask for a sign-in more recent than kitauth's
 * default (10 minutes):
 *
 * ```ts
 * // src/routes/account/two-factor.remote.ts
 * export const { enableTwoFactor, disableTwoFactor, regenerateBackupCodes } = twoFactorForms({ maxAge: 300 });
 * ```
 *
 * Each answers as the form action of its name (`twoFactor.actions()`), the answer being the
 * form's `result`: `verifyTwoFactor` (fields `code`, `remember`; redirects on success),
 * `enableTwoFactor` (field `code`: the backup codes), `disableTwoFactor`, `regenerateBackupCodes`,
 * `forgetTwoFactorDevices`.
 */
export function twoFactorForms(options: { maxAge?: number } = {}) {
	return {
		verifyTwoFactor: twoFactorForm(verifyTwoFactorForm),
		enableTwoFactor: twoFactorForm(enableTwoFactorForm),
		disableTwoFactor: twoFactorForm((scope) => disableTwoFactorForm(scope, options.maxAge)),
		regenerateBackupCodes: twoFactorForm((scope) => regenerateBackupCodesForm(scope, options.maxAge)),
		forgetTwoFactorDevices: twoFactorForm(forgetTwoFactorDevicesForm)
	};
}
