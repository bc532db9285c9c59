import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { AuthServer, Redirect } from '../core/index.js';
import { applyCookies } from './cookies.js';
import { serverRequest } from './platform.js';
import { validRedirectTo } from './form.js';
import { type Finished, submitSignIn, submitSignOut, type Submission } from './submit.js';
import type { MethodStep } from '../shared/identifier-first.js';
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
	/**
	 * As a form action: `export const actions = { signIn }`. Redirects on success; answers
	 * identifier-first's step 1 (an `email` and no provider) with `{ step: 'method', email }`.
	 */
	(event: RequestEvent): Promise<ActionFailure<AuthActionFailure> | MethodStep>;
}

export interface SignOutFunction {
	/** From server code. Redirects unless `redirect: false`, which returns the URL instead. */
	(options?: { redirect?: boolean; redirectTo?: string }): Promise<string>;
	/** As a form action: `export const actions = { signOut }`. Redirects on success. */
	(event: RequestEvent): Promise<ActionFailure<AuthActionFailure>>;
}

/** A form action's answer to a submission: the failure, step 2, or the redirect (thrown). */
function answer(submission: Finished): ActionFailure<AuthActionFailure>;
function answer(submission: Submission): ActionFailure<AuthActionFailure> | MethodStep;
function answer(submission: Submission): ActionFailure<AuthActionFailure> | MethodStep {
	if (!submission.ok) return fail(submission.status, submission.failure);
	if (submission.ok === 'step') return submission.step;
	redirect(303, submission.location, EXTERNAL);
}

function isEvent(value: unknown): value is RequestEvent {
	return !!value && typeof value === 'object' && 'request' in value && 'cookies' in value && 'locals' in value;
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

	async function asAction(event: RequestEvent): Promise<ActionFailure<AuthActionFailure> | MethodStep> {
		const form = await event.request.formData().catch(() => undefined);
		if (!form) return fail(400, { failed: true as const, fieldErrors: {}, formErrors: ['Expected a form submission.'] });
		return answer(await submitSignIn(event, await getServer(event), form));
	}

	async function signIn(
		eventOrProvider?: RequestEvent | string,
		options?: SignInOptions,
		authorizationParams?: AuthorizationParams
	): Promise<ActionFailure<AuthActionFailure> | MethodStep | string> {
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
			return answer(await submitSignOut(event, await getServer(event), form));
		}
		const event = getRequestEvent();
		const target = validRedirectTo(eventOrOptions?.redirectTo, event.url.origin, { failed: true, fieldErrors: {}, formErrors: [] });
		const location = await run(event, target);
		if (eventOrOptions?.redirect === false) return location;
		redirect(303, location, EXTERNAL);
	}
	return signOut as SignOutFunction;
}
