import { type AuthContext, actionUrl } from '../context.js';
import { clientProviders } from '../providers/public.js';
import type { ResponseInternal } from '../types/internal.js';
import type { PublicProvider } from '../types/provider.js';

/** GET /providers: the client-safe list of providers, as Auth.js answers it (by id, with their URLs). */
export function providers(ctx: AuthContext): ResponseInternal<Record<string, PublicProvider>> {
	const body: Record<string, PublicProvider> = {};
	for (const { id, name, type } of clientProviders(ctx.options.providers)) {
		body[id] = {
			id,
			name,
			type,
			signinUrl: actionUrl(ctx, `signin/${id}`),
			callbackUrl: actionUrl(ctx, `callback/${id}`)
		};
	}
	return { body };
}
