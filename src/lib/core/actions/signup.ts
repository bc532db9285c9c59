import type { CallbackUrl, ProviderContext } from '../context.js';
import { InvalidRequest } from '../errors.js';
import { signUp } from '../flows/password/signup.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** POST /signup/<id>: a new account with a password (`Password()` providers only; others are a 404). */
export async function signUpPost(req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const { provider } = ctx;
	if (provider.type !== 'credentials' || !provider.password) throw new InvalidRequest(`"${provider.id}" offers no sign-up`, 404);
	return signUp(req, ctx, provider.password, await callbackUrl());
}
