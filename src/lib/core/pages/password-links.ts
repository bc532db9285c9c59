import type { AuthContext } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import type { PasswordFormFailure } from './password-forms.js';
import { PasswordLink } from './components.js';
import { page, settingOf } from './page.js';

/**
 * "Check your email" after a link was asked for: the same page whether an account exists or not.
 * It says a reset link went out, or with `verify`, a confirmation link.
 */
export function linkSentPage(ctx: AuthContext, sent: 'reset' | 'verify' = 'reset'): Promise<ResponseInternal<string>> {
	const setting = settingOf(ctx);
	const message = setting.i18n.t(sent === 'reset' ? 'password.sent.reset' : 'password.sent.verify');
	return page(setting, setting.i18n.t('password.sent.heading'), PasswordLink, { homeUrl: ctx.origin, message });
}

/**
 * The page an emailed link opens: a form posting the link's values with the CSRF token (the new
 * password of a reset, or the button confirming an address). Its URL holds the token, so
 * referrers carry the origin only (as the sign-in link's page).
 */
export async function linkFormPage(
	ctx: AuthContext,
	props: { kind: 'reset' | 'confirm'; action: string; fields: Record<string, string>; rules?: { minLength: number; maxLength: number }; failure?: PasswordFormFailure },
	status = 200
): Promise<ResponseInternal<string>> {
	const { kind, action, fields, rules, failure } = props;
	const setting = settingOf(ctx);
	const title = setting.i18n.t(kind === 'reset' ? 'password.reset.heading' : 'password.confirm.heading');
	const target = { action, fields: { ...fields, csrfToken: ctx.csrf.token } };
	const res = await page(setting, title, PasswordLink, { kind, target, form: failure ? { failed: true, ...failure } : null, ...rules, homeUrl: ctx.origin }, status);
	return { ...res, headers: { ...res.headers, 'Referrer-Policy': 'strict-origin' } };
}
