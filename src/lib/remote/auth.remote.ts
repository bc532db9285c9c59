/**
 * kitauth's ready-made remote functions (SvelteKit 3.2's `experimental.remoteFunctions`): the
 * session as a query, sign-in and sign-out as forms, and a session update as a command. Kit serves
 * them from the package itself (kitauth lists `@sveltejs/kit` among its peer dependencies), so an
 * app imports them from `kitauth/remote` and writes no remote module of its own for them.
 *
 * They call the request's auth server through kitauth's handle: the same code as the form actions
 * (`sveltekit/submit.ts`), and the same once-per-request session read as `locals.auth()`. Only this
 * module may export remote functions' values: kit refuses anything else in a remote module.
 */
import { redirect } from '@sveltejs/kit';
import { command, form, query, type RemoteFormInput } from '$app/server';
import type { Session } from '../core/index.js';
import { applyCookies } from '../sveltekit/cookies.js';
import { serverRequest } from '../sveltekit/platform.js';
import { type Finished, submitSignIn, submitSignOut, type Submission } from '../sveltekit/submit.js';
import type { MethodStep } from '../shared/identifier-first.js';
import type { AuthActionFailure } from '../sveltekit/types.js';
import { formDataOf } from './form-data.js';
import { requestAuth } from './request.js';
import { sessionUpdateData } from './update-data.js';

/** Locations come from the core, already validated (same site, or the provider's authorization endpoint). */
const EXTERNAL = { external: true } as const;

/** A remote form's answer to a submission: the failure or step 2 as its `result`, or the redirect (thrown). */
function answer(submission: Finished): AuthActionFailure;
function answer(submission: Submission): AuthActionFailure | MethodStep;
function answer(submission: Submission): AuthActionFailure | MethodStep {
	if (!submission.ok) return submission.failure;
	if (submission.ok === 'step') return submission.step;
	// No single-flight refresh here: kit then reloads the page's data and queries on arrival, the
	// layout's `session` and the `session` query alike.
	redirect(303, submission.location, EXTERNAL);
}

/**
 * The session of the request (`locals.auth()`'s, read once per request however many remote calls
 * ask), or `null`. Refreshed by `signIn` and `signOut` (the page's data and queries reload after
 * their redirect) and set by `updateSession` in its own response.
 */
export const session = query(async (): Promise<Session | null> => (await requestAuth().current()).session);

/**
 * Sign in, as a remote form: `providerId`, the provider's fields (credentials, `email`),
 * `redirectTo`, and `options`/`authorizationParams` as the `signIn` form action takes them.
 * Redirects on success; a refusal is the form's `result`, `{ failed, fieldErrors, formErrors }`
 * as the action's (never echoing what was typed: passwords stay out of the page).
 */
export const signIn = form('unchecked', async (data: RemoteFormInput): Promise<AuthActionFailure | MethodStep> => {
	const auth = requestAuth();
	const server = await auth.server();
	// `id` is kit's instance key (`signIn.for(key)`), unless the provider has a field of that name.
	const provider = server.providers().find((p) => p.id === data.providerId);
	const fields = formDataOf(data, !!provider?.credentials && Object.hasOwn(provider.credentials, 'id'));
	if (!fields.ok) return fields.failure;
	return answer(await submitSignIn(auth.event, server, fields.form));
});

/** Sign out, as a remote form (`redirectTo`); redirects, or answers why not as its `result`. */
export const signOut = form('unchecked', async (data: RemoteFormInput): Promise<AuthActionFailure> => {
	const auth = requestAuth();
	const fields = formDataOf(data);
	if (!fields.ok) return fields.failure;
	return answer(await submitSignOut(auth.event, await auth.server(), fields.form));
});

/**
 * Updates the session as the browser client's `update(data)` does (the `jwt`/`session` callbacks
 * run with trigger `update`), answers the new session and sends it along as the `session` query's
 * value (a single-flight mutation: no second request to refresh it).
 */
export const updateSession = command(sessionUpdateData, async (data): Promise<Session | null> => {
	const auth = requestAuth();
	const updated = await (await auth.server()).updateSession(serverRequest(auth.event), data);
	applyCookies(auth.event.cookies, updated.cookies);
	session().set(updated.session);
	return updated.session;
});
