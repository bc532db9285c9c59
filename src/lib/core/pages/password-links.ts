import type { AuthContext } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import type { FormTarget } from '../../components/parts/types.js';
import type { PasswordFormFailure } from './password-forms.js';
import { PasswordLink } from './components.js';
import { page, settingOf } from './page.js';

/**
 * "Check your email" after a link was asked for: the same page whether an account exists or not.
 * It says a reset link went out, or with `verify`, a confirmation link; `code`: the form taking a
 * confirmation's one-time code (a wrong one's `errors` under its field); `notice`: why a code no
 * longer works, with `resend`, the form asking for a new message.
 */
export function linkSentPage(
	ctx: AuthContext,
	sent: 'reset' | 'verify' = 'reset',
	forms: { code?: FormTarget & { errors: string[] }; notice?: string; resend?: FormTarget } = {}
): Promise<ResponseInternal<string>> {
	const setting = settingOf(ctx);
	const message = setting.i18n.t(sent === 'reset' ? 'password.sent.reset' : forms.code ? 'password.sent.verifyCode' : 'password.sent.verify');
	return page(setting, setting.i18n.t('password.sent.heading'), PasswordLink, { homeUrl: ctx.origin, message, ...forms });
}

const TITLES = { reset: 'password.reset.heading', confirm: 'password.confirm.heading', 'confirm-email': 'account.confirmEmail.heading' } as const;

/**
 * The page an emailed link opens: a form posting the link's values with the CSRF token (the new
 * password of a reset, the button confirming an address, or a new address). Its URL holds the
 * token, so referrers carry the origin only (as the sign-in link's page).
 */
export async function linkFormPage(
	ctx: AuthContext,
	props: {
		kind: 'reset' | 'confirm' | 'confirm-email';
		action: string;
		fields: Record<string, string>;
		rules?: { minLength: number; maxLength: number };
		failure?: PasswordFormFailure;
		email?: string;
	},
	status = 200
): Promise<ResponseInternal<string>> {
	const { kind, action, fields, rules, failure, email } = props;
	const setting = settingOf(ctx);
	const title = setting.i18n.t(TITLES[kind]);
	const target = { action, fields: { ...fields, csrfToken: ctx.csrf.token } };
	const res = await page(setting, title, PasswordLink, { kind, target, form: failure ? { failed: true, ...failure } : null, email, ...rules, homeUrl: ctx.origin }, status);
	return { ...res, headers: { ...res.headers, 'Referrer-Policy': 'strict-origin' } };
}
