import { type AuthContext, resolveCallbackUrl } from '../context.js';
import { InvalidRequest, MissingCSRF } from '../errors.js';
import { credentialsIdentity } from '../flows/credentials.js';
import { callbackParams, oauthIdentity } from '../flows/oauth/callback.js';
import { forwardTarget } from '../flows/oauth/proxy.js';
import { completeSignIn } from '../login.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET|POST /callback/<id>: the provider proves who the user is; login.ts does the rest. */
export async function callback(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const provider = ctx.provider;
	// The client's mistake, not the server's: a 4xx (Auth.js answers with a 500 error page here).
	if (!provider) throw new InvalidRequest(req.providerId ? 'no such provider' : 'a callback needs a provider', req.providerId ? 404 : 400);
	if (provider.type === 'credentials') {
		if (req.method !== 'POST') throw new InvalidRequest('credentials callbacks must be POSTed');
		if (!ctx.csrf.verified) throw new MissingCSRF('Credentials sign-in without a valid CSRF token');
	} else {
		// A redirect proxy (the stable deployment) hands a callback back to the deployment that started it.
		const forward = req.method === 'GET' ? forwardTarget(ctx, provider, callbackParams(req)) : undefined;
		if (forward) return { redirect: forward };
	}
	const { callbackUrl, cookie } = await resolveCallbackUrl(ctx, req);
	const identity = provider.type === 'credentials' ? await credentialsIdentity(req, provider) : await oauthIdentity(req, ctx, provider);
	const res = await completeSignIn(ctx, req, identity, callbackUrl);
	return { ...res, cookies: [...(cookie ? [cookie] : []), ...(res.cookies ?? [])] };
}
