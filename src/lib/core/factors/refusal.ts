/**
 * What a two-factor action answers when it is refused, in the request's language: its status and
 * the spec's `{failed, fieldErrors, formErrors}` (a wrong code under its field), with
 * `reauthenticate` when it needs a recent sign-in and `expired` when no sign-in waits for its
 * second step. The REST actions and the SvelteKit form actions both answer from here.
 */
import type { Translator } from '../../i18n/index.js';
import { InvalidRequest, InvalidTwoFactorCode, ReauthenticationRequired, TwoFactorExpired } from '../errors.js';

export interface TwoFactorRefusal {
	status: 400 | 403 | 404 | 413;
	body: { failed: true; fieldErrors: { code?: string[] }; formErrors: string[]; reauthenticate?: true; expired?: true };
}

/** The refusal `error` comes to, or `undefined` when it is none of the two-factor refusals (a fault: throw it). */
export function twoFactorRefusalOf(error: unknown, i18n: Translator): TwoFactorRefusal | undefined {
	if (error instanceof InvalidTwoFactorCode) return { status: 400, body: { failed: true, fieldErrors: { code: [i18n.t(error.text)] }, formErrors: [] } };
	const refused = (status: TwoFactorRefusal['status'], message: string, extra: { reauthenticate?: true; expired?: true } = {}): TwoFactorRefusal => ({
		status,
		body: { failed: true, fieldErrors: {}, formErrors: [message], ...extra }
	});
	if (error instanceof ReauthenticationRequired) return refused(403, i18n.t('twoFactor.answer.reauthenticate'), { reauthenticate: true });
	if (error instanceof TwoFactorExpired) return refused(400, i18n.t('signIn.error.twoFactorExpired'), { expired: true });
	if (error instanceof InvalidRequest) return refused(error.status, error.text ? i18n.t(error.text) : error.message);
	return undefined;
}
