import { type AuthContext, actionUrl, resolveCallbackUrl, withParams } from '../context.js';
import { isUrlSafeError, MissingCSRF } from '../errors.js';
import { startOAuth } from '../flows/oauth/authorize.js';
import { signInPage } from '../pages/index.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET /signin: the built-in page, or a redirect to `pages.signIn`. */
export async function signInGet(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const { callbackUrl, cookie } = await resolveCallbackUrl(ctx, req);
	const cookies = cookie ? [cookie] : [];
	if (req.providerId) {
		// A provider's sign-in starts with a POST (it carries the CSRF token): show the page.
		return { redirect: withParams(actionUrl(ctx, 'signin'), { callbackUrl }), cookies };
	}
	const error = req.query.error && isUrlSafeError(req.query.error) ? req.query.error : undefined;
	const custom = ctx.options.pages.signIn;
	if (custom) {
		const code = error === 'CredentialsSignin' ? req.query.code : undefined;
		return { redirect: withParams(`${ctx.origin}${custom}`, { callbackUrl, error, code }), cookies };
	}
	return { ...signInPage(ctx, { callbackUrl, error }), cookies };
}

/**
 * POST /signin[/<id>]: starts a provider's flow. Providers whose form posts straight to their
 * callback (credentials) and a POST without a provider land on the sign-in page.
 */
export async function signInPost(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	if (!ctx.csrf.verified) throw new MissingCSRF('Sign-in without a valid CSRF token');
	const { callbackUrl, cookie } = await resolveCallbackUrl(ctx, req);
	const cookies = cookie ? [cookie] : [];
	const signinPage = withParams(ctx.options.pages.signIn ? `${ctx.origin}${ctx.options.pages.signIn}` : actionUrl(ctx, 'signin'), { callbackUrl });
	const provider = ctx.provider;
	if (!provider || provider.type === 'credentials') return { redirect: signinPage, cookies };
	const started = await startOAuth(req, ctx, provider);
	return { ...started, cookies: [...cookies, ...(started.cookies ?? [])] };
}
