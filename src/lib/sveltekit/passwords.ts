import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { type AuthServer, type PasswordAccountAction, refusalOf } from '../core/index.js';
import { applyCookies } from './cookies.js';
import { EXTERNAL, submittedForm } from './form-answer.js';
import { serverRequest } from './platform.js';

/**
 * What the password form actions answer on a refusal (the page's `form`): the spec's
 * `{failed, fieldErrors, formErrors}`, the address typed (a sign-up's) to show again, and when to
 * retry after a 429 or 503. Success redirects (303), as the REST routes do.
 */
export type PasswordActionData = {
	failed: true;
	fieldErrors: { email?: string[]; password?: string[] };
	formErrors: string[];
	values?: { email?: string };
	retryAfter?: number;
};

type Answer = Promise<ActionFailure<PasswordActionData>>;

/**
 * What the account form actions answer on a refusal: 400 a refused field, 401 signed out, 403 the
 * current password wrong or missing (`reauthenticate` where a recent sign-in would do), 429/503
 * with `retryAfter`.
 */
export type PasswordAccountActionData = {
	failed: true;
	fieldErrors: { currentPassword?: string[]; newPassword?: string[]; email?: string[] };
	formErrors: string[];
	reauthenticate?: true;
	retryAfter?: number;
};

/** A refusal of the server API (an `AuthError`): 429, 503, else 400, with nothing under the fields. */
type Refused = { failed: true; fieldErrors: Record<string, never>; formErrors: string[]; retryAfter?: number };

type AccountAnswer<Done> = Promise<ActionFailure<PasswordAccountActionData> | Done>;

/** `export const actions = { ...passwords.actions() }`. */
export interface PasswordActions {
	/** A new account (fields `email`, `password`, `name`, `callbackUrl`): to the sign-in page, or "check your email". */
	signUp: (event: RequestEvent) => Answer;
	/** Asks for a reset link (field `email`): the same answer for known and unknown addresses. */
	forgotPassword: (event: RequestEvent) => Answer;
	/** The new password of a reset link (fields `user`, `token`, `password`): to the sign-in page. */
	resetPassword: (event: RequestEvent) => Answer;
	/** A new confirmation link (field `email`): the same answer for every address, to "check your email". */
	resendVerification: (event: RequestEvent) => Answer;
	/** The signed-in user's new password (fields `currentPassword`, `newPassword`); their other sessions end. */
	changePassword: (event: RequestEvent) => AccountAnswer<{ changed: true }>;
	/** Mails a link confirming a new address (fields `currentPassword`, `email`); the same answer for a taken one. */
	changeEmail: (event: RequestEvent) => AccountAnswer<{ requested: true }>;
	/** Deletes the signed-in user's account (`currentPassword`, optional after a recent sign-in); signs out. */
	deleteAccount: (event: RequestEvent) => AccountAnswer<{ deleted: true }>;
}

export interface SvelteKitPasswords {
	/** Form actions for password accounts; `provider`: the `Password()` provider's id (default: the first). */
	actions(options?: { provider?: string }): PasswordActions;
}

/** The fields the password forms have; anything else submitted is not passed on. */
const FIELDS = ['email', 'password', 'name', 'callbackUrl', 'user', 'token', 'currentPassword', 'newPassword'] as const;

async function fieldsOf(event: RequestEvent): Promise<Record<string, string>> {
	const form = await submittedForm(event);
	return Object.fromEntries(FIELDS.flatMap((name) => {
		const value = form.get(name);
		return typeof value === 'string' ? [[name, value]] : [];
	}));
}

/** Password accounts' form actions: thin over the server API's `passwordForm` (the REST routes' step). */
export function createPasswords(getServer: (event: RequestEvent) => Promise<AuthServer>): SvelteKitPasswords {
	return {
		actions: (options = {}) => {
			/** Runs a call of the server API; an `AuthError` becomes its form failure (429, 503, else 400). */
			const attempt = async <T>(event: RequestEvent, call: (server: AuthServer) => Promise<T>): Promise<{ done: T } | { refused: ActionFailure<Refused> }> => {
				const server = await getServer(event);
				try {
					return { done: await call(server) };
				} catch (error) {
					const refusal = refusalOf(error, server.i18n(event.request));
					if (!refusal) throw error;
					const retry = refusal.retryAfter === undefined ? {} : { retryAfter: refusal.retryAfter };
					return { refused: fail(refusal.status, { failed: true as const, fieldErrors: {}, formErrors: [refusal.message], ...retry }) };
				}
			};
			const act = (action: Parameters<AuthServer['passwordForm']>[1]) => async (event: RequestEvent): Answer => {
				const fields = await fieldsOf(event);
				const attempted = await attempt(event, (server) => server.passwordForm(serverRequest(event), action, fields, options.provider));
				if ('refused' in attempted) return attempted.refused;
				const outcome = attempted.done;
				if (!outcome.ok) return fail(400, { failed: true, fieldErrors: outcome.fieldErrors, formErrors: [], ...(outcome.values ? { values: outcome.values } : {}) });
				applyCookies(event.cookies, outcome.cookies);
				redirect(303, outcome.url, EXTERNAL);
			};
			const change = <Done>(action: PasswordAccountAction) => async (event: RequestEvent): AccountAnswer<Done> => {
				const fields = await fieldsOf(event);
				const attempted = await attempt(event, (server) => server.passwordAccount(serverRequest(event), action, fields, options.provider));
				if ('refused' in attempted) return attempted.refused;
				const outcome = attempted.done;
				if (!outcome.ok) {
					const { status, fieldErrors, formErrors, reauthenticate } = outcome;
					return fail(status, { failed: true, fieldErrors, formErrors, ...(reauthenticate ? { reauthenticate } : {}) });
				}
				applyCookies(event.cookies, outcome.cookies);
				return outcome.data as Done;
			};
			return {
				signUp: act('signup'),
				forgotPassword: act('forgot-password'),
				resetPassword: act('reset-password'),
				resendVerification: act('resend-verification'),
				changePassword: change<{ changed: true }>('change-password'),
				changeEmail: change<{ requested: true }>('change-email'),
				deleteAccount: change<{ deleted: true }>('delete-account')
			};
		}
	};
}
