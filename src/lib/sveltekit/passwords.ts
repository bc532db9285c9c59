import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { type AuthServer, refusalOf } from '../core/index.js';
import { applyCookies } from './cookies.js';
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

/** `export const actions = { ...passwords.actions() }`. */
export interface PasswordActions {
	/** A new account (fields `email`, `password`, `name`, `callbackUrl`): to the sign-in page, or "check your email". */
	signUp: (event: RequestEvent) => Answer;
	/** Asks for a reset link (field `email`): the same answer for known and unknown addresses. */
	forgotPassword: (event: RequestEvent) => Answer;
	/** The new password of a reset link (fields `user`, `token`, `password`): to the sign-in page. */
	resetPassword: (event: RequestEvent) => Answer;
}

export interface SvelteKitPasswords {
	/** Form actions for password accounts; `provider`: the `Password()` provider's id (default: the first). */
	actions(options?: { provider?: string }): PasswordActions;
}

const EXTERNAL = { external: true } as const;
/** The fields the password forms have; anything else submitted is not passed on. */
const FIELDS = ['email', 'password', 'name', 'callbackUrl', 'user', 'token'] as const;

async function fieldsOf(event: RequestEvent): Promise<Record<string, string>> {
	const form = await event.request.formData().catch(() => new FormData());
	return Object.fromEntries(FIELDS.flatMap((name) => {
		const value = form.get(name);
		return typeof value === 'string' ? [[name, value]] : [];
	}));
}

/** Password accounts' form actions: thin over the server API's `passwordForm` (the REST routes' step). */
export function createPasswords(getServer: (event: RequestEvent) => Promise<AuthServer>): SvelteKitPasswords {
	return {
		actions: (options = {}) => {
			const act = (action: Parameters<AuthServer['passwordForm']>[1]) => async (event: RequestEvent): Answer => {
				const server = await getServer(event);
				let outcome: Awaited<ReturnType<AuthServer['passwordForm']>>;
				try {
					outcome = await server.passwordForm(serverRequest(event), action, await fieldsOf(event), options.provider);
				} catch (error) {
					// 429 when rate limited, 503 when the store was busy (nothing changed), else 400.
					const refusal = refusalOf(error, server.i18n(event.request));
					if (!refusal) throw error;
					const retry = refusal.retryAfter === undefined ? {} : { retryAfter: refusal.retryAfter };
					return fail(refusal.status, { failed: true, fieldErrors: {}, formErrors: [refusal.message], ...retry });
				}
				if (!outcome.ok) return fail(400, { failed: true, fieldErrors: outcome.fieldErrors, formErrors: [], ...(outcome.values ? { values: outcome.values } : {}) });
				applyCookies(event.cookies, outcome.cookies);
				redirect(303, outcome.url, EXTERNAL);
			};
			return { signUp: act('signup'), forgotPassword: act('forgot-password'), resetPassword: act('reset-password') };
		}
	};
}
