import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import { type AuthServer, type ClientProvider, type Redirect, type Refusal, refusalOf } from '../core/index.js';
import { applyCookies } from './cookies.js';
import { serverRequest } from './platform.js';
import { parseSignInForm, parseSignOutForm, validRedirectTo } from './form.js';
import type { AuthActionFailure } from './types.js';

type GetServer = (event: RequestEvent) => Promise<AuthServer>;

/**
 * Locations come from the core, already validated (same-origin callback URLs, or the provider's
 * authorization endpoint), so external redirects are allowed. Kit 3 requires saying so; kit 2
 * ignores the argument.
 */
const EXTERNAL = { external: true } as const;

/** Options of the programmatic `signIn()` (a record or the FormData of a form). */
export type SignInOptions =
	| FormData
	| ({ redirect?: boolean; redirectTo?: string } & Record<string, string | boolean | undefined>);

export type AuthorizationParams = string | Record<string, string> | URLSearchParams | string[][];

// The form-action signature comes last: SvelteKit derives `ActionData` from the last overload.
export interface SignInFunction {
	/**
	 * From server code: sign in with `provider` (no provider: the sign-in page). Redirects
	 * (throws SvelteKit's redirect) unless `redirect: false`, which returns the URL instead.
	 * Throws an `AuthError` when the sign-in fails.
	 */
	(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string>;
	/** As a form action: `export const actions = { signIn }`. Redirects on success. */
	(event: RequestEvent): Promise<ActionFailure<AuthActionFailure>>;
}

export interface SignOutFunction {
	/** From server code. Redirects unless `redirect: false`, which returns the URL instead. */
	(options?: { redirect?: boolean; redirectTo?: string }): Promise<string>;
	/** As a form action: `export const actions = { signOut }`. Redirects on success. */
	(event: RequestEvent): Promise<ActionFailure<AuthActionFailure>>;
}

function isEvent(value: unknown): value is RequestEvent {
	return !!value && typeof value === 'object' && 'request' in value && 'cookies' in value && 'locals' in value;
}

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

/** Sets the cookies of a sign-in or sign-out on the event and answers where to go next. */
function follow(event: RequestEvent, outcome: Redirect): string {
	applyCookies(event.cookies, outcome.cookies);
	return outcome.url;
}

export function createSignIn(getServer: GetServer): SignInFunction {
	async function run(
		event: RequestEvent,
		providerId: string | undefined,
		fields: Record<string, unknown>,
		authorizationParams: URLSearchParams,
		redirectTo: string | undefined
	): Promise<string> {
		const server = await getServer(event);
		return follow(event, await server.signIn(serverRequest(event), providerId, { fields, authorizationParams, callbackUrl: redirectTo }));
	}

	async function asAction(event: RequestEvent): Promise<ActionFailure<AuthActionFailure>> {
		const providers = (await getServer(event)).providers();
		const form = await event.request.formData().catch(() => undefined);
		if (!form) return fail(400, { failed: true as const, fieldErrors: {}, formErrors: ['Expected a form submission.'] });
		const parsed = parseSignInForm(form, providers.map((p) => p.id), event.url.origin);
		if (!parsed.ok) return fail(400, parsed.failure);
		const { providerId, options: fields, authorizationParams, redirectTo } = parsed.value;
		let location: string;
		try {
			location = await run(event, providerId, fields, authorizationParams, redirectTo);
		} catch (error) {
			// 429 when rate limited, 503 when the store was busy (the call changed nothing), else 400.
			const refusal = refusalOf(error);
			if (!refusal) throw error;
			const provider = providers.find((p) => p.id === providerId);
			return fail(refusal.status, refused(refusal, provider?.id, keptValues(provider, fields)));
		}
		redirect(303, location, EXTERNAL);
	}

	async function signIn(
		eventOrProvider?: RequestEvent | string,
		options?: SignInOptions,
		authorizationParams?: AuthorizationParams
	): Promise<ActionFailure<AuthActionFailure> | string> {
		if (isEvent(eventOrProvider)) return asAction(eventOrProvider);
		const event = getRequestEvent();
		const record: Record<string, unknown> = options instanceof FormData ? Object.fromEntries(options) : { ...options };
		const { redirect: shouldRedirect = true, redirectTo, ...fields } = record;
		const target = validRedirectTo(
			typeof redirectTo === 'string' ? redirectTo : undefined,
			event.url.origin,
			{ failed: true, fieldErrors: {}, formErrors: [] }
		);
		const location = await run(event, eventOrProvider, fields, new URLSearchParams(authorizationParams), target);
		if (shouldRedirect === false || shouldRedirect === 'false') return location;
		redirect(303, location, EXTERNAL);
	}
	return signIn as SignInFunction;
}

export function createSignOut(getServer: GetServer): SignOutFunction {
	async function run(event: RequestEvent, redirectTo: string | undefined): Promise<string> {
		const server = await getServer(event);
		return follow(event, await server.signOut(serverRequest(event), { callbackUrl: redirectTo }));
	}

	async function signOut(
		eventOrOptions?: RequestEvent | { redirect?: boolean; redirectTo?: string }
	): Promise<ActionFailure<AuthActionFailure> | string> {
		if (isEvent(eventOrOptions)) {
			const event = eventOrOptions;
			const form = await event.request.formData().catch(() => new FormData());
			const parsed = parseSignOutForm(form, event.url.origin);
			if (!parsed.ok) return fail(400, parsed.failure);
			let location: string;
			try {
				location = await run(event, parsed.value.redirectTo);
			} catch (error) {
				const refusal = refusalOf(error);
				if (!refusal) throw error;
				const retry = refusal.status === 503 ? { retryAfter: refusal.retryAfter } : {};
				return fail(503, { failed: true as const, fieldErrors: {}, formErrors: ['Could not sign out. Try again.'], error: refusal.error, ...retry });
			}
			redirect(303, location, EXTERNAL);
		}
		const event = getRequestEvent();
		const target = validRedirectTo(eventOrOptions?.redirectTo, event.url.origin, { failed: true, fieldErrors: {}, formErrors: [] });
		const location = await run(event, target);
		if (eventOrOptions?.redirect === false) return location;
		redirect(303, location, EXTERNAL);
	}
	return signOut as SignOutFunction;
}
