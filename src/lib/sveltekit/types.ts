import type { RequestEvent } from '@sveltejs/kit';
import type { AuthConfig, Session } from '../core/index.js';

/**
 * The configuration of `SvelteKitAuth`: the core's. (`skipCSRFCheck` is honoured, as in
 * `@auth/sveltekit`; `raw` has no effect here: the hook always answers with a `Response`.)
 */
export type SvelteKitAuthConfig = AuthConfig;

/** A configuration, or a function of the request event returning one (lazy initialisation). */
export type SvelteKitAuthConfigInput =
	| SvelteKitAuthConfig
	| ((event: RequestEvent) => SvelteKitAuthConfig | PromiseLike<SvelteKitAuthConfig>);

/**
 * SvelteKit's `Handle`, spelled out: kit 2 exports it from `@sveltejs/kit`, kit 3 from
 * `@sveltejs/kit/hooks`, and kitauth supports both.
 */
export type Handle = (input: {
	event: RequestEvent;
	// Kit 2's `resolve` may answer synchronously, kit 3's always with a promise: accept both, so
	// the handle fits either kit's `Handle` (and `sequence`).
	resolve: (event: RequestEvent) => Response | Promise<Response>;
}) => Promise<Response>;

/**
 * What the sign-in and sign-out form actions return on failure. (A type, not an interface:
 * kit 2's `ActionFailure<T>` wants `T` to fit `Record<string, unknown>`, which only an object
 * type alias does implicitly.)
 */
export type AuthActionFailure = {
	failed: true;
	fieldErrors: {
		providerId?: string[];
		options?: string[];
		authorizationParams?: string[];
		redirectTo?: string[];
		/** Identifier-first's step 1: the address is missing or not one. */
		email?: string[];
	};
	formErrors: string[];
	/** When the provider refused: the error type (e.g. `CredentialsSignin`). */
	error?: string;
	/** `CredentialsSignin` code (default `credentials`). */
	code?: string;
	/** The submitted values of non-secret fields, so a re-rendered form keeps them. */
	values?: Record<string, string>;
	/**
	 * Seconds until another attempt may be made: `RateLimited` (status 429), or `Unavailable`
	 * (status 503: the store was busy or out of reach, and nothing was changed).
	 */
	retryAfter?: number;
	/** The provider whose form was submitted, so the failure shows on that form. */
	providerId?: string;
};

declare global {
	namespace App {
		interface Locals {
			/**
			 * The current session, or `null`. Memoized per request; throws (never a session) when
			 * the auth configuration is broken.
			 */
			auth(): Promise<Session | null>;
			/** @deprecated `@auth/sveltekit`'s older name for {@link App.Locals.auth}. */
			getSession(): Promise<Session | null>;
		}
	}
}
