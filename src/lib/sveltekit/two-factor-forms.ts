import type { RequestEvent } from '@sveltejs/kit';
import { AuthError, type AuthServer, InvalidRequest, type TwoFactorManager, twoFactorRefusalOf } from '../core/index.js';
import type { PlainKey } from '../i18n/index.js';
import { applyCookies } from './cookies.js';
import type { FormAnswer } from './form-answer.js';
import { serverRequest } from './platform.js';

/**
 * What the two-factor forms answer (the page's `form`, or a remote form's `result`), for
 * `<TwoFactorChallenge>`, `<TwoFactorSetup>` and `<BackupCodes>`: the spec's
 * `{failed, fieldErrors, formErrors}` on a refusal; new `backupCodes` to show once; a short
 * `twoFactorMessage`.
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

type Answer = Promise<FormAnswer<TwoFactorActionData>>;

/** What a two-factor form works on: the request (its cookies take a sign-in's), its auth server, the user's two-factor. */
export interface TwoFactorFormScope {
	event: RequestEvent;
	server: AuthServer;
	/** The signed-in user's two-factor authentication (the sign-in's second step needs none). */
	twoFactor(): Promise<TwoFactorManager>;
}

/** Runs a step; a refusal the components show becomes its answer with the status it deserves, anything else (a fault) is thrown on. */
async function answered(scope: TwoFactorFormScope, run: () => Answer): Answer {
	try {
		return await run();
	} catch (error) {
		const refused = error instanceof AuthError ? twoFactorRefusalOf(error, scope.server.i18n(scope.event.request)) : undefined;
		if (!refused) throw error;
		return { status: refused.status, data: refused.body };
	}
}

const ok = (data: TwoFactorActionData) => ({ status: 200, data });
const say = (scope: TwoFactorFormScope, key: PlainKey) => scope.server.i18n(scope.event.request).t(key);

/**
 * The sign-in's second step (fields `code`, `remember`): where the sign-in goes on, or, after a
 * sign-in that set two-factor up, the backup codes to save first (`continueUrl`).
 */
export function verifyTwoFactorForm(scope: TwoFactorFormScope, form: FormData): Answer {
	return answered(scope, async () => {
		const { event, server } = scope;
		const outcome = await server.completeTwoFactor(serverRequest(event), { code: form.get('code'), remember: form.get('remember') });
		if (!outcome.ok) return { status: 400, data: { failed: true, fieldErrors: { code: [outcome.message] }, formErrors: [] } };
		applyCookies(event.cookies, outcome.cookies);
		return outcome.backupCodes ? ok({ backupCodes: outcome.backupCodes, continueUrl: outcome.url }) : { location: outcome.url };
	});
}

/** Turns two-factor on with a code from the app (field `code`): the backup codes. */
export function enableTwoFactorForm(scope: TwoFactorFormScope, form: FormData): Answer {
	return answered(scope, async () => {
		const code = form.get('code');
		const backupCodes = await (await scope.twoFactor()).enable(typeof code === 'string' ? code : undefined);
		return ok({ backupCodes, twoFactorMessage: say(scope, 'twoFactor.answer.enabled') });
	});
}

/** Turns it off (needs a sign-in within `maxAge` seconds). */
export function disableTwoFactorForm(scope: TwoFactorFormScope, maxAge?: number): Answer {
	return answered(scope, async () => {
		const off = await (await scope.twoFactor()).disable({ maxAge });
		return ok({ twoFactorMessage: say(scope, off ? 'twoFactor.answer.disabled' : 'twoFactor.answer.wasNotOn') });
	});
}

/** New backup codes, replacing all (needs a sign-in within `maxAge` seconds); 404 while two-factor is off. */
export function regenerateBackupCodesForm(scope: TwoFactorFormScope, maxAge?: number): Answer {
	return answered(scope, async () => {
		const backupCodes = await (await scope.twoFactor()).regenerateBackupCodes({ maxAge });
		if (!backupCodes) throw new InvalidRequest('two-factor is not on', 404, 'twoFactor.answer.notOn');
		return ok({ backupCodes });
	});
}

/** Browsers remembered until now ask for the second factor again. */
export function forgetTwoFactorDevicesForm(scope: TwoFactorFormScope): Answer {
	return answered(scope, async () => {
		await (await scope.twoFactor()).forgetDevices();
		return ok({ twoFactorMessage: say(scope, 'twoFactor.answer.forgotten') });
	});
}
