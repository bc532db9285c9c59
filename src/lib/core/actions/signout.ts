import { type AuthContext, type CallbackUrl, customPage } from '../context.js';
import { signOutPage } from '../pages/index.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET /signout: the confirmation page (a POST form), or a redirect to `pages.signOut`. */
export async function signOutGet(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const custom = customPage(ctx, 'signOut');
	if (custom) return { redirect: custom };
	const callbackUrl = typeof req.query.callbackUrl === 'string' ? req.query.callbackUrl : undefined;
	return signOutPage(ctx, callbackUrl);
}

/** POST /signout: ends the session (cookie and, for database sessions, the row). */
export async function signOutPost(req: RequestInternal, ctx: AuthContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const redirect = await callbackUrl();
	const cookies = await ctx.options.strategy.end(ctx);
	return { redirect, cookies };
}
