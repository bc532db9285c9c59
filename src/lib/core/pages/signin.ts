import { type AuthContext, actionUrl } from '../context.js';
import { flowOf } from '../flows/index.js';
import { clientProvider } from '../providers/public.js';
import type { ClientProvider } from '../../shared/provider.js';
import type { ResponseInternal } from '../types/internal.js';
import { SignIn } from './components.js';
import { page } from './page.js';
import { PASSKEY_SCRIPT } from './passkey-script.generated.js';

/**
 * The built-in sign-in page. It asks the flow table how each provider's form posts and what a
 * browser may know of it, while the email flow renders pages of its own (index.ts): kept apart, so
 * the flows and the pages do not import each other.
 */
export async function signInPage(ctx: AuthContext, params: { callbackUrl: string; error?: string }): Promise<ResponseInternal<string>> {
	const fields = { csrfToken: ctx.csrf.token, callbackUrl: params.callbackUrl };
	const actions = new Map(ctx.options.providers.map((provider) => [provider.id, flowOf(provider).serverAction]));
	const providers = ctx.options.providers.map(clientProvider);
	return page(
		ctx.options.theme,
		'Sign in',
		SignIn,
		{
			providers,
			error: params.error,
			basePath: new URL(ctx.baseUrl).pathname.replace(/\/$/, ''),
			// Plain forms to the REST endpoints: providers proven on their callback (credentials, passkeys)
			// post there, the others start at /signin/<id>.
			target: (provider: ClientProvider) => ({
				action: actionUrl(ctx, `${actions.get(provider.id) === 'callback' ? 'callback' : 'signin'}/${provider.id}`),
				fields
			})
		},
		200,
		// Passkeys need the browser: the page inlines their script (bundled with kitauth, never from a CDN).
		providers.some((provider) => provider.webauthn) ? PASSKEY_SCRIPT : undefined
	);
}
