import { getRequestEvent } from '$app/server';
import { type RequestAuth, requestAuthOf } from '../sveltekit/request-auth.js';

/**
 * The auth of the request a remote function runs in, as kitauth's handle left it. Without the
 * handle there is none: that is a mistake in the app's hooks, and fails loudly (never a session).
 */
export function requestAuth(): RequestAuth {
	const auth = requestAuthOf(getRequestEvent());
	if (!auth) throw new Error("kitauth/remote: this request did not pass kitauth's handle (export it from src/hooks.server.ts)");
	return auth;
}
