import type { RequestEvent } from '@sveltejs/kit';
import { type AuthServer, type ClientProvider, type Refusal, refusalOf } from '../core/index.js';
import { emailMethods, type MethodStep, parseIdentifier } from '../shared/identifier-first.js';
import { applyCookies } from './cookies.js';
import { parseSignInForm, parseSignOutForm } from './form.js';
import { serverRequest } from './platform.js';
import type { AuthActionFailure } from './types.js';

/**
 * What a submitted sign-in or sign-out form comes to: where to go (its cookies already set on the
 * event), or the failure to show with the status it deserves. The form actions (`signIn`,
 * `signOut`) and kitauth's remote forms (`kitauth/remote`) both answer from it.
 */
export type Submission =
	| Finished
	/** Identifier-first's step 1 was sent: show step 2 for the address (nothing signed in, nothing looked up). */
	| { ok: 'step'; step: MethodStep };

/** Where to go, or why not (a sign-out is always one of these). */
export type Finished = { ok: true; location: string } | { ok: false; status: 400 | 429 | 503; failure: AuthActionFailure };

/** What a form shows when the provider refused: the type, the code, a human message, when to retry. */
function refused(refusal: Refusal, providerId: string | undefined, values?: Record<string, string>): AuthActionFailure {
	const { error, code, message, retryAfter } = refusal;
	return { providerId, failed: true, fieldErrors: {}, formErrors: [message], error, code, values, ...(retryAfter === undefined ? {} : { retryAfter }) };
}

/** The submitted values worth showing again: the fields the provider's public view says a form keeps. */
function keptValues(provider: ClientProvider | undefined, fields: Record<string, string>): Record<string, string> | undefined {
	const kept = Object.fromEntries(
		(provider?.keptFields ?? []).filter((name) => typeof fields[name] === 'string').map((name) => [name, fields[name]!.slice(0, 256)])
	);
	return Object.keys(kept).length ? kept : undefined;
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
	if (providerId === undefined && form.has('email') && emailMethods(providers)) return identified(event, server, form);
	try {
		const outcome = await server.signIn(serverRequest(event), providerId, { fields, authorizationParams, callbackUrl: redirectTo });
		applyCookies(event.cookies, outcome.cookies);
		return { ok: true, location: outcome.url };
	} catch (error) {
		// 429 when rate limited, 503 when the store was busy (the call changed nothing), else 400.
		const refusal = refusalOf(error, server.i18n(event.request));
		if (!refusal) throw error;
		const provider = providers.find((p) => p.id === providerId);
		return { ok: false, status: refusal.status, failure: refused(refusal, provider?.id, keptValues(provider, fields)) };
	}
}

/**
 * Identifier-first's step 1 (an address, no provider): step 2 for it, the same for every address
 * (no lookup: whether it has an account stays unknown), or a field error when it is not an address.
 */
function identified(event: RequestEvent, server: AuthServer, form: FormData): Submission {
	const email = parseIdentifier(form.getAll('email'));
	if (email !== null) return { ok: 'step', step: { step: 'method', email } };
	const typed = form.get('email');
	return {
		ok: false,
		status: 400,
		failure: {
			failed: true,
			fieldErrors: { email: [server.i18n(event.request).t('password.invalidEmail')] },
			formErrors: [],
			...(typeof typed === 'string' ? { values: { email: typed.slice(0, 256) } } : {})
		}
	};
}

/** A sign-out form (`redirectTo` only), then signed out through the server API. */
export async function submitSignOut(event: RequestEvent, server: AuthServer, form: FormData): Promise<Finished> {
	const parsed = parseSignOutForm(form, event.url.origin);
	if (!parsed.ok) return { ok: false, status: 400, failure: parsed.failure };
	try {
		const outcome = await server.signOut(serverRequest(event), { callbackUrl: parsed.value.redirectTo });
		applyCookies(event.cookies, outcome.cookies);
		return { ok: true, location: outcome.url };
	} catch (error) {
		const refusal = refusalOf(error);
		if (!refusal) throw error;
		const failure: AuthActionFailure = { failed: true, fieldErrors: {}, formErrors: [server.i18n(event.request).t('signOut.failed')], error: refusal.error };
		return { ok: false, status: 503, failure: refusal.status === 503 ? { ...failure, retryAfter: refusal.retryAfter } : failure };
	}
}
