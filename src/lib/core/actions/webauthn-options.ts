import { InvalidRequest } from '../errors.js';
import { flowOf } from '../flows/index.js';
import type { ProviderContext } from '../context.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET /webauthn-options/<id>: the ceremony options of a provider whose flow has them. */
export async function webauthnOptions(req: RequestInternal, ctx: ProviderContext): Promise<ResponseInternal> {
	const options = flowOf(ctx.provider).options;
	if (!options) throw new InvalidRequest(`Provider "${ctx.provider.id}" has no WebAuthn options`);
	return options(req, ctx, ctx.provider);
}
