import type { ActionFailure, RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { AuthServer, CurrentSession, TwoFactorManager } from '../core/index.js';
import { actionAnswer, submittedForm } from './form-answer.js';
import {
	disableTwoFactorForm,
	enableTwoFactorForm,
	forgetTwoFactorDevicesForm,
	regenerateBackupCodesForm,
	type TwoFactorActionData,
	type TwoFactorFormScope,
	verifyTwoFactorForm
} from './two-factor-forms.js';

export type { TwoFactorActionData } from './two-factor-forms.js';

type Answer = Promise<TwoFactorActionData | ActionFailure<TwoFactorActionData>>;

/** `export const actions = { ...twoFactor.actions() }`. */
export interface TwoFactorActions {
	/** The sign-in's second step (fields `code`, `remember`): redirects on success. */
	verifyTwoFactor: (event: RequestEvent) => Answer;
	/** Turns two-factor on with a code from the app (field `code`): the backup codes. */
	enableTwoFactor: (event: RequestEvent) => Answer;
	/** Turns it off (needs a recent sign-in). */
	disableTwoFactor: (event: RequestEvent) => Answer;
	/** New backup codes, replacing all (needs a recent sign-in). */
	regenerateBackupCodes: (event: RequestEvent) => Answer;
	/** Browsers remembered until now ask for the second factor again. */
	forgetTwoFactorDevices: (event: RequestEvent) => Answer;
}

export interface SvelteKitTwoFactor extends TwoFactorManager {
	/**
	 * Form actions for the two-factor components; `maxAge`: how recent a sign-in turning it off
	 * and making new codes ask for, in seconds (default 600).
	 */
	actions(options?: { maxAge?: number }): TwoFactorActions;
}

/** The signed-in user's two-factor authentication, and its form actions. */
export function createTwoFactor(
	current: (event: RequestEvent) => Promise<CurrentSession>,
	getServer: (event: RequestEvent) => Promise<AuthServer>
): SvelteKitTwoFactor {
	const scope = async (event: RequestEvent = getRequestEvent()) => (await current(event)).twoFactor;
	const formScope = async (event: RequestEvent): Promise<TwoFactorFormScope> => ({ event, server: await getServer(event), twoFactor: () => scope(event) });
	return {
		status: async () => (await scope()).status(),
		setup: async (options) => (await scope()).setup(options),
		enable: async (code) => (await scope()).enable(code),
		disable: async (options) => (await scope()).disable(options),
		regenerateBackupCodes: async (options) => (await scope()).regenerateBackupCodes(options),
		forgetDevices: async () => (await scope()).forgetDevices(),
		actions: ({ maxAge } = {}) => ({
			verifyTwoFactor: async (event) => actionAnswer(await verifyTwoFactorForm(await formScope(event), await submittedForm(event))),
			enableTwoFactor: async (event) => actionAnswer(await enableTwoFactorForm(await formScope(event), await submittedForm(event))),
			disableTwoFactor: async (event) => actionAnswer(await disableTwoFactorForm(await formScope(event), maxAge)),
			regenerateBackupCodes: async (event) => actionAnswer(await regenerateBackupCodesForm(await formScope(event), maxAge)),
			forgetTwoFactorDevices: async (event) => actionAnswer(await forgetTwoFactorDevicesForm(await formScope(event)))
		})
	};
}
