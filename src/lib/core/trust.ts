import type { AuthOptions } from './config.js';
import { UntrustedHost } from './errors.js';

/**
 * The one trusted-host check: without `AUTH_URL` or `trustHost`, the `Host` header is the client's
 * word, and every URL the core makes from it could point elsewhere.
 */
export function assertTrustedHost(options: AuthOptions, url: URL): void {
	if (options.trustHost) return;
	throw new UntrustedHost(
		`Host must be trusted. Set AUTH_URL to this site's URL, or AUTH_TRUST_HOST=true when the platform sets the Host header safely. URL was: ${url.origin}`
	);
}
