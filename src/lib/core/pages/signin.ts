import type { Snippet } from 'svelte';
import { type AuthContext, actionUrl, withParams } from '../context.js';
import { escapeHtml } from '../html.js';
import { clientProviders } from '../providers/public.js';
import { signInEndpoint } from '../../shared/endpoints.js';
import type { ClientProvider } from '../../shared/provider.js';
import type { FormFailure } from '../../components/parts/types.js';
import type { ResponseInternal } from '../types/internal.js';
import { createRawSnippet, SignIn } from './components.js';
import { page, settingOf } from './page.js';
import { PASSKEY_SCRIPT } from './passkey-script.generated.js';

/**
 * The built-in sign-in page: the providers' client-safe list (which asks the flow table what a
 * browser may know of each), each form posting where `shared/endpoints.ts` says. The email flow
 * renders pages of its own (index.ts): kept apart, so the flows and the pages do not import each
 * other.
 */
export async function signInPage(
	ctx: AuthContext,
	params: { callbackUrl: string; error?: string; form?: FormFailure },
	status = 200
): Promise<ResponseInternal<string>> {
	const fields = { csrfToken: ctx.csrf.token, callbackUrl: params.callbackUrl };
	const providers = clientProviders(ctx.options.providers);
	const footer = passwordLinks(ctx);
	const signin = actionUrl(ctx, 'signin');
	return page(
		settingOf(ctx),
		ctx.i18n.t('signIn.heading'),
		SignIn,
		{
			providers,
			error: params.error,
			form: params.form,
			basePath: new URL(ctx.baseUrl).pathname.replace(/\/$/, ''),
			// Plain forms to the REST endpoints.
			target: (provider: ClientProvider) => ({ action: signInEndpoint(ctx.baseUrl, provider), fields }),
			// Identifier-first: the address posts back here (step 2 is this page's answer); back is a GET.
			identify: { action: signin, fields },
			back: withParams(signin, { callbackUrl: params.callbackUrl }),
			...(footer ? { footer } : {})
		},
		status,
		// Passkeys need the browser: the page inlines their script (bundled with kitauth, never from a CDN).
		providers.some((provider) => provider.webauthn) ? PASSKEY_SCRIPT : undefined
	);
}

/**
 * Under the forms, for each `Password()` provider: links to its built-in "create an account" page
 * and, when it offers resets, its "forgot your password?" page (known on the server only, so not
 * part of the client-safe provider list).
 */
function passwordLinks(ctx: AuthContext): Snippet | undefined {
	const links = ctx.options.providers.flatMap((provider) => {
		if (provider.type !== 'credentials' || !provider.password) return [];
		const suffix = ctx.options.providers.filter((p) => p.type === 'credentials' && p.password).length > 1 ? ` (${provider.name})` : '';
		const link = (path: string, text: string) => `<a href="${escapeHtml(actionUrl(ctx, `${path}/${provider.id}`))}">${escapeHtml(text + suffix)}</a>`;
		return [link('signup', ctx.i18n.t('password.signUp.heading')), ...(provider.password.sendPasswordReset ? [link('forgot-password', ctx.i18n.t('password.forgot.heading'))] : [])];
	});
	if (!links.length) return undefined;
	return createRawSnippet(() => ({ render: () => `<p class="kitauth-password-links">${links.join(' · ')}</p>` }));
}
