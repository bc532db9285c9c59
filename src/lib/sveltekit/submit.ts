import type { RequestEvent } from '@sveltejs/kit';
import {
	AuthError,
	type AuthServer,
	type ClientProvider,
	CredentialsSignin,
	RateLimited,
	retryAfterOf,
	safeCode,
	signInMessage,
	urlErrorFor
} from '../core/index.js';
import type { Translator } from '../i18n/index.js';
import { applyCookies } from './cookies.js';
import { parseSignInForm, parseSignOutForm } from './form.js';
import { serverRequest } from './platform.js';
import type { AuthActionFailure } from './types.js';

/**
 * What a submitted sign-in or sign-out form comes to: where to go (its cookies already set on the
 * event), or the failure to show with the status it deserves. The form actions (`signIn`,
 * `signOut`) and kitauth's remote forms (`kitauth/remote`) both answer from it.
 */
export type Submission = { ok: true; location: string } | { ok: false; status: 400 | 429 | 503; failure: AuthActionFailure };

/** What a form shows when the provider refused: the type, the code and a human message. */
function refusal(error: AuthError, i18n: Translator, providerId: string | undefined, values?: Record<string, string>): AuthActionFailure {
	const type = urlErrorFor(error);
	return {
		providerId,
		failed: true,
		fieldErrors: {},
		formErrors: [signInMessage(type, i18n)],
		error: type,
		code: error instanceof CredentialsSignin ? safeCode(error.code) : undefined,
		values
	};
}

/** The submitted values worth showing again: the provider's declared, non-password form fields. */
function keptValues(provider: ClientProvider | undefined, fields: Record<string, string>): Record<string, string> | undefined {
	if (provider?.type === 'email' && typeof fields.email === 'string') return { email: fields.email.slice(0, 256) };
	if (!provider?.credentials) return undefined;
	const kept: Record<string, string> = {};
	for (const [name, input] of Object.entries(provider.credentials)) {
		if (input.type !== 'password' && typeof fields[name] === 'string') kept[name] = fields[name].slice(0, 256);
	}
	return kept;
}

/**
 * A sign-in form, validated, then signed in through the server API (`event` is the request's
 * own, whose cookies take the sign-in's). A refusal is the form's failure: 429 when rate limited,
 * 503 when the store was busy or out of reach (nothing changed), 400 otherwise.
 */
export async function submitSignIn(event: RequestEvent, server: AuthServer, form: FormData): Promise<Submission> {
	const providers = server.providers();
	const parsed = parseSignInForm(form, providers.map((p) => p.id), event.url.origin);
	if (!parsed.ok) return { ok: false, status: 400, failure: parsed.failure };
	const { providerId, options: fields, authorizationParams, redirectTo } = parsed.value;
	try {
		const outcome = await server.signIn(serverRequest(event), providerId, { fields, authorizationParams, callbackUrl: redirectTo });
		applyCookies(event.cookies, outcome.cookies);
		return { ok: true, location: outcome.url };
	} catch (error) {
		const provider = providers.find((p) => p.id === providerId);
		const i18n = server.i18n(event.request);
		// Too many attempts: 429, and when to retry.
		if (error instanceof RateLimited) {
			return { ok: false, status: 429, failure: { ...refusal(error, i18n, provider?.id, keptValues(provider, fields)), retryAfter: error.retryAfter } };
		}
		if (!(error instanceof AuthError)) throw error;
		const failure = refusal(error, i18n, provider?.id, keptValues(provider, fields));
		// The store is busy or out of reach for a while: 503 (the call that failed changed nothing), and when to retry.
		const retryAfter = retryAfterOf(error);
		return retryAfter === undefined ? { ok: false, status: 400, failure } : { ok: false, status: 503, failure: { ...failure, retryAfter } };
	}
}

/** A sign-out form (`redirectTo` only), then signed out through the server API. */
export async function submitSignOut(event: RequestEvent, server: AuthServer, form: FormData): Promise<Submission> {
	const parsed = parseSignOutForm(form, event.url.origin);
	if (!parsed.ok) return { ok: false, status: 400, failure: parsed.failure };
	try {
		const outcome = await server.signOut(serverRequest(event), { callbackUrl: parsed.value.redirectTo });
		applyCookies(event.cookies, outcome.cookies);
		return { ok: true, location: outcome.url };
	} catch (error) {
		if (!(error instanceof AuthError)) throw error;
		const retryAfter = retryAfterOf(error);
		const message = server.i18n(event.request).t('signOut.failed');
		const failure: AuthActionFailure = { failed: true, fieldErrors: {}, formErrors: [message], error: urlErrorFor(error) };
		return { ok: false, status: 503, failure: retryAfter === undefined ? failure : { ...failure, retryAfter } };
	}
}
