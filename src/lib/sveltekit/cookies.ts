import type { Cookies } from '@sveltejs/kit';
import type { Cookie } from '../core/index.js';

/** Hands core cookies to SvelteKit (values already plain; the core and kit both URI-encode). */
export function applyCookies(target: Cookies, cookies: readonly Cookie[] | undefined): void {
	for (const { name, value, options } of cookies ?? []) {
		target.set(name, value, {
			path: options.path ?? '/',
			domain: options.domain,
			expires: options.expires,
			maxAge: options.maxAge,
			httpOnly: options.httpOnly,
			secure: options.secure ?? false,
			sameSite: options.sameSite,
			partitioned: options.partitioned
		});
	}
}
