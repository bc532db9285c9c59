/**
 * `kitauth/remote/server`: for the app's own remote functions (server-only). `guard` lets a
 * `query`, `command` or `form` run only for a signed-in user (else 401), optionally one with a
 * role or passing a check (else 403), and hands it the session; `accessToken` is the user's token
 * for a provider, refreshed once however many remote calls of a request ask. `passkeyForms` and
 * `twoFactorForms` make the passkey and two-factor components' remote forms with another window for
 * the sensitive ones, for the app's own remote module.
 */
import { error } from '@sveltejs/kit';
import type { Session, User } from '../core/index.js';
import { requestAuth } from './request.js';

export { passkeyForms } from './passkeys.js';
export { twoFactorForms } from './two-factor.js';

/** A session with its user: what a guarded function receives. */
export type SignedInSession = Session & { user: User };

export interface GuardOptions<Args extends unknown[] = unknown[]> {
	/**
	 * The roles allowed: the session's `user.role` (a string, or an array of them, as the app's
	 * `session` callback puts it there) must be one of these.
	 */
	role?: string | readonly string[];
	/** A further check of the user (and of the call's arguments); `false` answers 403. */
	allow?: (session: SignedInSession, ...args: Args) => boolean | Promise<boolean>;
}

/**
 * Wraps the function of a remote `query`, `command` or `form` so that it runs only for a signed-in
 * user, who is its first argument; kit's own arguments (the validated input; a form's `issue`)
 * follow:
 *
 * ```ts
 * export const notes = query(guard(async (session) => db.notes(session.user.id)));
 * export const rename = command(v.string(), guard(async (session, name) => …, { role: 'admin' }));
 * ```
 *
 * Signed out: 401. Signed in without the role, or refused by `allow`: 403. The session is the
 * request's, read once (as `locals.auth()`).
 */
export function guard<Args extends unknown[], Output>(
	fn: (session: SignedInSession, ...args: Args) => Output | Promise<Output>,
	options: GuardOptions<Args> = {}
): (...args: Args) => Promise<Output> {
	return async (...args) => {
		const session = await signedIn();
		if (!session) error(401, 'Sign in to continue.');
		if (!hasRole(session, options.role) || (options.allow && !(await options.allow(session, ...args)))) error(403, 'Not allowed.');
		return fn(session, ...args);
	};
}

/** The request's session when a user is signed in, else `null`. */
async function signedIn(): Promise<SignedInSession | null> {
	const { session } = await requestAuth().current();
	return session?.user ? (session as SignedInSession) : null;
}

/** Does the user hold one of the roles (any user, when no role is asked for)? */
export function hasRole(session: Session, role: GuardOptions['role']): boolean {
	if (role === undefined) return true;
	const wanted: readonly string[] = typeof role === 'string' ? [role] : role;
	const held: unknown = (session.user as Record<string, unknown> | undefined)?.role;
	const roles = Array.isArray(held) ? held : [held];
	return roles.some((item) => typeof item === 'string' && wanted.includes(item));
}

/**
 * The signed-in user's access token for a provider, refreshed when it has expired — once for the
 * request, however many remote calls ask, and once across concurrent requests of this process;
 * `null` when there is none or it cannot be renewed. Server code only: tokens never go to the browser.
 */
export async function accessToken(providerId: string): Promise<string | null> {
	return (await requestAuth().current()).accessToken(providerId);
}
