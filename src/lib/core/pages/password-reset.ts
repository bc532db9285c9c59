import type { AuthContext } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import { PasswordReset } from './components.js';
import { page } from './page.js';

/** "Check your email" after a reset link was asked for: the same page whether an account exists or not. */
export function resetSentPage(ctx: AuthContext): Promise<ResponseInternal<string>> {
	return page(ctx.options.theme, 'Check your email', PasswordReset, { homeUrl: ctx.origin });
}

/**
 * The form a reset link opens: the new password, posted with the link's values and the CSRF
 * token. Its URL holds the token, so referrers carry the origin only (as the sign-in link's page).
 */
export async function choosePasswordPage(
	ctx: AuthContext,
	props: { action: string; fields: Record<string, string>; rules: { minLength: number; maxLength: number }; error?: string },
	status = 200
): Promise<ResponseInternal<string>> {
	const { action, fields, rules, error } = props;
	const res = await page(
		ctx.options.theme,
		'Choose a new password',
		PasswordReset,
		{ target: { action, fields: { ...fields, csrfToken: ctx.csrf.token } }, error, ...rules, homeUrl: ctx.origin },
		status
	);
	return { ...res, headers: { ...res.headers, 'Referrer-Policy': 'strict-origin' } };
}
