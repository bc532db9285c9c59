import { type AuthContext, pageUrl } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import { PasswordAccount } from './components.js';
import { page, settingOf } from './page.js';

/** What a refused form shows: messages under its fields, and the address typed (never a password). */
export interface PasswordFormFailure {
	fieldErrors: { email?: string[]; password?: string[] };
	values?: { email?: string };
}

/** The built-in "create an account" or "forgot your password?" page of a `Password()` provider, in the page setting's language. */
export function passwordFormPage(
	ctx: AuthContext,
	props: { kind: 'signup' | 'forgot'; action: string; fields?: Record<string, string>; rules: { minLength: number; maxLength: number }; failure?: PasswordFormFailure }
): Promise<ResponseInternal<string>> {
	const { kind, action, fields, rules, failure } = props;
	const setting = settingOf(ctx);
	const title = setting.i18n.t(kind === 'signup' ? 'password.signUp.heading' : 'password.forgot.heading');
	const target = { action, fields: { ...fields, csrfToken: ctx.csrf.token } };
	const form = failure ? { failed: true, ...failure } : null;
	return page(setting, title, PasswordAccount, { kind, target, form, ...rules, signInUrl: pageUrl(ctx, 'signIn') }, failure ? 400 : 200);
}
