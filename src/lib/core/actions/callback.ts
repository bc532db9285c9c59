import { InvalidRequest } from '../errors.js';
import { flowOf } from '../flows/index.js';
import { completeSignIn } from '../login.js';
import type { CallbackUrl, ProviderContext } from '../context.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET|POST /callback/<id>: the provider's flow proves who the user is; login.ts does the rest. */
export async function callback(req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const { provider } = ctx;
	const flow = flowOf(provider);
	if (!flow.callback.methods.includes(req.method)) {
		throw new InvalidRequest(`callbacks of "${provider.id}" must be ${flow.callback.methods.join(' or ')} requests`);
	}
	const outcome = await flow.callback.run(req, ctx, provider);
	if ('response' in outcome) return outcome.response;
	return completeSignIn(ctx, req, outcome.identity, flow.users, await callbackUrl());
}
