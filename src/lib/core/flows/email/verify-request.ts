import { type AuthContext, actionUrl } from '../../context.js';
import { verifyRequestPage } from '../../pages/index.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { EmailConfig } from '../../types/provider.js';
import type { CodeError } from './code.js';
import { openPendingCode } from '../code/cookie.js';
import { CODE_ATTEMPTS } from '../code/derive.js';

/**
 * GET /verify-request?provider=<email-id>: "check your email", and, when the provider offers codes
 * and this browser asked for the link, the address it went to and a field for the code.
 */
export async function emailVerifyRequest(req: RequestInternal, ctx: AuthContext, provider: EmailConfig): Promise<ResponseInternal> {
	const pending = provider.code ? await openPendingCode(ctx, req.cookies, provider.id) : undefined;
	const error: CodeError | undefined = req.query.codeError === 'wrong' || req.query.codeError === 'spent' ? req.query.codeError : undefined;
	const left = pending ? Math.max(CODE_ATTEMPTS - pending.attempt, 0) : 0;
	return verifyRequestPage(ctx, {
		email: pending?.email,
		code: pending && {
			action: actionUrl(ctx, `callback/${provider.id}`),
			error: error === 'wrong' ? ctx.i18n.t('verify.codeWrong', { count: left }) : undefined
		},
		notice:
			!pending && provider.code === true && error !== undefined
				? ctx.i18n.t('verify.codeSpent')
				: undefined
	});
}
