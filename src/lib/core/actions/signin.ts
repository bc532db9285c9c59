import { type AuthContext, type CallbackUrl, actionUrl, customPage, pageUrl, withParams } from '../context.js';
import { isUrlSafeError } from '../error-answers.js';
import { flowOf } from '../flows/index.js';
import { signInPage } from '../pages/signin.js';
import { clientProviders } from '../providers/public.js';
import { emailMethods, parseIdentifier } from '../../shared/identifier-first.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET /signin: the built-in page, or a redirect to `pages.signIn`. */
export async function signInGet(req: RequestInternal, ctx: AuthContext, resolveCallbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const callbackUrl = await resolveCallbackUrl();
	if (req.providerId) {
		// A provider's sign-in starts with a POST (it carries the CSRF token): show the page.
		return { redirect: withParams(actionUrl(ctx, 'signin'), { callbackUrl }) };
	}
	const error = req.query.error && isUrlSafeError(req.query.error) ? req.query.error : undefined;
	const custom = customPage(ctx, 'signIn');
	if (custom) {
		const code = error === 'CredentialsSignin' ? req.query.code : undefined;
		return { redirect: withParams(custom, { callbackUrl, error, code }) };
	}
	return signInPage(ctx, { callbackUrl, error });
}

/**
 * POST /signin[/<id>]: starts the provider's flow. A provider whose flow has no start (its form
 * posts straight to its callback) and a POST without a provider land on the sign-in page; but an
 * address without a provider is identifier-first's step 1 on the built-in page (the CSRF token
 * checked, as for every POST), answered with step 2 for it: rendered, never redirected (the
 * address stays out of URLs), and the same for every address (nothing is looked up).
 */
export async function signInPost(req: RequestInternal, ctx: AuthContext, resolveCallbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const callbackUrl = await resolveCallbackUrl();
	const provider = ctx.provider;
	const start = provider && flowOf(provider).start;
	if (provider && start) return start(req, ctx, provider, callbackUrl);
	if (!provider && 'email' in req.body && !customPage(ctx, 'signIn') && emailMethods(clientProviders(ctx.options.providers))) {
		const email = parseIdentifier([req.body.email]);
		if (email !== null) return signInPage(ctx, { callbackUrl, form: { step: 'method', email } });
		const typed = typeof req.body.email === 'string' ? req.body.email.slice(0, 256) : '';
		const form = { failed: true, fieldErrors: { email: [ctx.i18n.t('password.invalidEmail')] }, values: { email: typed } };
		return signInPage(ctx, { callbackUrl, form }, 400);
	}
	return { redirect: pageUrl(ctx, 'signIn', { callbackUrl }) };
}
