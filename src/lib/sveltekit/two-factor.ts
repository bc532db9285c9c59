import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import {
	type AuthServer,
	type CurrentSession,
	InvalidRequest,
	InvalidTwoFactorCode,
	ReauthenticationRequired,
	TwoFactorExpired,
	type TwoFactorManager
} from '../core/index.js';
import { applyCookies } from './cookies.js';
import { serverRequest } from './platform.js';

/**
 * What the two-factor form actions answer (the page's `form`), for `<TwoFactorChallenge>`,
 * `<TwoFactorSetup>` and `<BackupCodes>`: the spec's `{failed, fieldErrors, formErrors}` on a
 * refusal; new `backupCodes` to show once; a short `twoFactorMessage`.
 */
export type TwoFactorActionData = {
	failed?: true;
	fieldErrors?: { code?: string[] };
	formErrors?: string[];
	/** A message for the user (news, unless `failed`). */
	twoFactorMessage?: string;
	/** New backup codes: show them once. */
	backupCodes?: string[];
	/** After a sign-in that set two-factor up: where to go once the codes are saved. */
	continueUrl?: string;
	/** The action needs a recent sign-in: sign in again, then retry. */
	reauthenticate?: boolean;
	/** No sign-in was waiting for a second factor here (expired, or done): sign in again. */
	expired?: boolean;
};

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

const EXTERNAL = { external: true } as const;

/** A refusal the components show: the status it deserves and what to say. */
function refusal(error: unknown): ActionFailure<TwoFactorActionData> {
	if (error instanceof InvalidTwoFactorCode) return fail(400, { failed: true, fieldErrors: { code: [error.message] }, formErrors: [] });
	if (error instanceof ReauthenticationRequired) {
		return fail(403, { failed: true, formErrors: ['Sign in again to confirm it is you, then try again.'], reauthenticate: true });
	}
	if (error instanceof TwoFactorExpired) {
		return fail(400, { failed: true, formErrors: ['Your sign-in expired before the second step. Sign in again.'], expired: true });
	}
	if (error instanceof InvalidRequest) return fail(error.status, { failed: true, formErrors: [error.message] });
	throw error;
}

async function field(event: RequestEvent, name: string): Promise<string | undefined> {
	const value = (await event.request.formData().catch(() => new FormData())).get(name);
	return typeof value === 'string' ? value : undefined;
}

/** The signed-in user's two-factor authentication, and its form actions. */
export function createTwoFactor(
	current: (event: RequestEvent) => Promise<CurrentSession>,
	getServer: (event: RequestEvent) => Promise<AuthServer>
): SvelteKitTwoFactor {
	const scope = async (event: RequestEvent = getRequestEvent()) => (await current(event)).twoFactor;
	const guarded = (run: (event: RequestEvent) => Promise<TwoFactorActionData>) => async (event: RequestEvent) => {
		try {
			return await run(event);
		} catch (error) {
			return refusal(error);
		}
	};
	return {
		status: async () => (await scope()).status(),
		setup: async (options) => (await scope()).setup(options),
		enable: async (code) => (await scope()).enable(code),
		disable: async (options) => (await scope()).disable(options),
		regenerateBackupCodes: async (options) => (await scope()).regenerateBackupCodes(options),
		forgetDevices: async () => (await scope()).forgetDevices(),
		actions: (options = {}) => ({
			verifyTwoFactor: async (event) => {
				const form = await event.request.formData().catch(() => new FormData());
				let outcome: Awaited<ReturnType<AuthServer['completeTwoFactor']>>;
				try {
					outcome = await (await getServer(event)).completeTwoFactor(serverRequest(event), { code: form.get('code'), remember: form.get('remember') });
				} catch (error) {
					return refusal(error);
				}
				if (!outcome.ok) return fail(400, { failed: true, fieldErrors: { code: [outcome.message] }, formErrors: [] });
				applyCookies(event.cookies, outcome.cookies);
				if (outcome.backupCodes) return { backupCodes: outcome.backupCodes, continueUrl: outcome.url };
				redirect(303, outcome.url, EXTERNAL);
			},
			enableTwoFactor: guarded(async (event) => ({
				backupCodes: await (await scope(event)).enable(await field(event, 'code')),
				twoFactorMessage: 'Two-step verification is now on. Save your backup codes.'
			})),
			disableTwoFactor: guarded(async (event) => {
				const off = await (await scope(event)).disable(options);
				return { twoFactorMessage: off ? 'Two-step verification is off.' : 'Two-step verification was not on.' };
			}),
			regenerateBackupCodes: guarded(async (event) => {
				const backupCodes = await (await scope(event)).regenerateBackupCodes(options);
				if (!backupCodes) throw new InvalidRequest('Two-step verification is not on.', 404);
				return { backupCodes };
			}),
			forgetTwoFactorDevices: guarded(async (event) => {
				await (await scope(event)).forgetDevices();
				return { twoFactorMessage: 'Remembered browsers will be asked for a code again.' };
			})
		})
	};
}
