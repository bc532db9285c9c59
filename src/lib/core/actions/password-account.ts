/**
 * The REST side of the signed-in user's password account (JSON, CSRF-protected POSTs of a
 * `Password()` provider): `change-password` (`currentPassword`, `newPassword`) → `{ changed }`,
 * `change-email` (`currentPassword`, `email`) → `{ requested }`, `delete-account`
 * (`currentPassword`, optional after a recent sign-in) → `{ deleted }`. Refusals answer
 * `{ failed, fieldErrors, formErrors }`: 400 a refused field, 401 signed out, 403 the current
 * password wrong or missing (`reauthenticate: true` where a recent sign-in would do). And the
 * email change's confirmation link: `GET|POST /confirm-email/<id>`, pages.
 */
import type { ProviderContext } from '../context.js';
import { InvalidRequest } from '../errors.js';
import type { AccountStep } from '../flows/password/account-proof.js';
import { changePassword, deleteAccount } from '../flows/password/account.js';
import { confirmEmail, confirmEmailPage, requestEmailChange } from '../flows/password/email-change.js';
import type { PasswordAccountAction } from '../flows/password/fields.js';
import { NO_CACHE } from '../response.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import { passwordOf } from './password.js';

/** …and its account messages: without them there is no email change (404). */
function accountMailOf(ctx: ProviderContext) {
	const options = passwordOf(ctx);
	if (!options.sendAccountEmail) throw new InvalidRequest(`"${ctx.provider.id}" offers no email change`, 404);
	return [options, options.sendAccountEmail] as const;
}

/** An account change of the route's provider; the REST routes below and the server API take it. */
export function accountStep(action: PasswordAccountAction, req: RequestInternal, ctx: ProviderContext): Promise<AccountStep> {
	if (action === 'change-password') return changePassword(req, ctx, passwordOf(ctx));
	if (action === 'delete-account') return deleteAccount(req, ctx, passwordOf(ctx));
	const [options, send] = accountMailOf(ctx);
	return requestEmailChange(req, ctx, ctx.provider.id, options, send);
}

function answer(step: AccountStep): ResponseInternal {
	if (step.ok) return { status: 200, headers: { ...NO_CACHE }, body: step.data, cookies: step.cookies };
	const { status, fieldErrors, formErrors, reauthenticate } = step;
	return { status, headers: { ...NO_CACHE }, body: { failed: true, fieldErrors, formErrors, ...(reauthenticate ? { reauthenticate } : {}) } };
}

const jsonRoute = (action: PasswordAccountAction) => async (req: RequestInternal, ctx: ProviderContext) => answer(await accountStep(action, req, ctx));

export const changePasswordPost = jsonRoute('change-password');
export const changeEmailPost = jsonRoute('change-email');
export const deleteAccountPost = jsonRoute('delete-account');

/** GET /confirm-email/<id>: the button an email change's link opens (nothing used up). */
export function confirmEmailGet(req: RequestInternal, ctx: ProviderContext): Promise<ResponseInternal> {
	accountMailOf(ctx);
	return confirmEmailPage(req, ctx, ctx.provider.id);
}

/** POST /confirm-email/<id>: changes the address with the link's token. */
export function confirmEmailPost(req: RequestInternal, ctx: ProviderContext): Promise<ResponseInternal> {
	accountMailOf(ctx);
	return confirmEmail(req, ctx, ctx.provider.id);
}
