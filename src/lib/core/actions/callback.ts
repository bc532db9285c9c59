import { type AuthContext, resolveCallbackUrl } from '../context.js';
import { InvalidProvider, MissingCSRF } from '../errors.js';
import { credentialsIdentity } from '../flows/credentials.js';
import { completeSignIn } from '../login.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET|POST /callback/<id>: the provider proves who the user is; login.ts does the rest. */
export async function callback(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const provider = ctx.provider;
	if (!provider) throw new InvalidProvider(`No provider with id "${req.providerId ?? ''}"`);
	const { callbackUrl, cookie } = await resolveCallbackUrl(ctx, req);
	if (provider.type === 'credentials') {
		if (req.method !== 'POST') throw new InvalidProvider('Credentials callbacks must be POSTed');
		if (!ctx.csrf.verified) throw new MissingCSRF('Credentials sign-in without a valid CSRF token');
		const identity = await credentialsIdentity(req, provider);
		const res = await completeSignIn(ctx, req, identity, callbackUrl);
		return { ...res, cookies: [...(cookie ? [cookie] : []), ...(res.cookies ?? [])] };
	}
	throw new InvalidProvider(`Provider "${provider.id}" of type ${provider.type} has no callback yet`);
}
