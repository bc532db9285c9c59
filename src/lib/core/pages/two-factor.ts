/**
 * The built-in pages of a sign-in's second step: the challenge (a code or a backup code), the
 * set-up a sign-in asks for when the account must have two-factor and has none, and the backup
 * codes shown once after it. Rendered from the component kit's parts, like the other pages.
 */
import { type AuthContext, actionUrl } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import type { TwoFactorSetupInfo } from '../types/two-factor.js';
import { BackupCodes, TwoFactorChallenge, TwoFactorSetup } from './components.js';
import { page, settingOf } from './page.js';

/** A refusal as the forms show it. */
export interface PageFailure {
	fieldErrors?: Record<string, string[]>;
	formErrors?: string[];
}

const DAY = 24 * 60 * 60;

export function twoFactorChallengePage(ctx: AuthContext, failure?: PageFailure): Promise<ResponseInternal<string>> {
	const remember = ctx.options.twoFactor?.rememberMaxAge ?? 0;
	return page(
		settingOf(ctx),
		'Two-step verification',
		TwoFactorChallenge,
		{
			action: actionUrl(ctx, 'two-factor'),
			fields: { csrfToken: ctx.csrf.token },
			form: failure ? { failed: true, ...failure } : null,
			rememberDays: Math.floor(remember / DAY),
			cancelUrl: actionUrl(ctx, 'signin')
		},
		failure ? 400 : 200
	);
}

export function twoFactorEnrollPage(ctx: AuthContext, setup: TwoFactorSetupInfo, failure?: PageFailure): Promise<ResponseInternal<string>> {
	return page(
		settingOf(ctx),
		'Two-step verification',
		TwoFactorSetup,
		{
			setup,
			signingIn: true,
			action: actionUrl(ctx, 'two-factor'),
			fields: { csrfToken: ctx.csrf.token },
			form: failure ? { failed: true, ...failure } : null
		},
		failure ? 400 : 200
	);
}

export function backupCodesPage(ctx: AuthContext, codes: string[], continueUrl: string): Promise<ResponseInternal<string>> {
	return page(settingOf(ctx), 'Backup codes', BackupCodes, { codes, continueUrl });
}
