import type { AuthContext } from '../context.js';
import { NO_CACHE } from '../response.js';
import { expiredCookie } from '../session/cookies.js';
import type { ResponseInternal } from '../types/internal.js';

/** GET /csrf: the raw token (the cookie holds it hash-signed). 404 when CSRF checks are off. */
export function csrf(ctx: AuthContext): ResponseInternal {
	if (ctx.options.skipCSRFCheck) {
		ctx.options.logger.warn('csrf-disabled');
		const { name, options } = ctx.cookies.csrfToken;
		return { status: 404, cookies: [expiredCookie(name, options)] };
	}
	return { headers: { ...NO_CACHE }, body: { csrfToken: ctx.csrf.token } };
}
