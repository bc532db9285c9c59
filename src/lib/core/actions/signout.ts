import { type AuthContext, resolveCallbackUrl } from '../context.js';
import { MissingCSRF } from '../errors.js';
import { signOutPage } from '../pages/index.js';
import { endSession } from '../session/index.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET /signout: the confirmation page (a POST form), or a redirect to `pages.signOut`. */
export async function signOutGet(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const custom = ctx.options.pages.signOut;
	if (custom) return { redirect: `${ctx.origin}${custom}` };
	const callbackUrl = typeof req.query.callbackUrl === 'string' ? req.query.callbackUrl : undefined;
	return signOutPage(ctx, callbackUrl);
}

/** POST /signout: ends the session (cookie and, for database sessions, the row). */
export async function signOutPost(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	if (!ctx.csrf.verified) throw new MissingCSRF('Sign-out without a valid CSRF token');
	const { callbackUrl, cookie } = await resolveCallbackUrl(ctx, req);
	const cookies = await endSession(ctx, req.cookies);
	return { redirect: callbackUrl, cookies: cookie ? [cookie, ...cookies] : cookies };
}
