import type { AuthOptions } from './types/options.js';
import { UntrustedHost } from './errors.js';

/**
 * The one trusted-host decision, taken before anything is derived from a request: without
 * `AUTH_URL` or `trustHost`, the `Host` header is the client's word, and every URL the core could
 * make from it (a redirect, a page's links, a callback URL) could point elsewhere.
 */
export function hostTrusted(options: Pick<AuthOptions, 'trustHost'>): boolean {
	return options.trustHost;
}

/** Throws `UntrustedHost` unless {@link hostTrusted} (the server API: never a session, never a URL). */
export function assertTrustedHost(options: Pick<AuthOptions, 'trustHost'>): void {
	if (!hostTrusted(options)) throw untrustedHost();
}

/** What to fix, without the request's host (the client's word, and no business of the log's). */
export function untrustedHost(): UntrustedHost {
	return new UntrustedHost(
		'The Host header is not trusted, so no request is served. Set AUTH_URL to this site\'s URL, or ' +
			'AUTH_TRUST_HOST=true (or `trustHost: true`) when the platform sets the Host header safely.'
	);
}
