/**
 * The REST side of two-factor management for the signed-in user (JSON, CSRF-protected POSTs):
 * `two-factor-setup` → `{ secret, uri, issuer, accountName }`; `two-factor-enable` `{code}` →
 * `{ backupCodes }`; `two-factor-disable` → `{ disabled }`; `two-factor-backup-codes` →
 * `{ backupCodes }`; `two-factor-devices` → `{ forgotten: true }`. Refusals answer
 * `{ failed, fieldErrors, formErrors }`: 400 a wrong code, 403 signed out or (with
 * `reauthenticate: true`) a sign-in too old for disabling or new codes, 409 when already on or off.
 */
import type { AuthContext } from '../context.js';
import { InvalidRequest, InvalidTwoFactorCode, ReauthenticationRequired } from '../errors.js';
import { twoFactorManager } from '../factors/manage.js';
import { limitAttempt } from '../limit/attempt.js';
import { sessionUserId } from '../session/end.js';
import { NO_CACHE } from '../response.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import type { TwoFactorManager } from '../types/two-factor.js';

type Failure = { failed: true; fieldErrors: Record<string, string[]>; formErrors: string[]; reauthenticate?: true };

function answer(status: number, body: object, cookies: ResponseInternal['cookies'] = []): ResponseInternal {
	return { status, headers: { ...NO_CACHE }, body, cookies };
}

function failure(status: number, formErrors: string[], extra: Partial<Failure> = {}): ResponseInternal {
	return answer(status, { failed: true, fieldErrors: {}, formErrors, ...extra });
}

/** Runs one management call for the request's session; refusals become their JSON answers. */
function manage(
	run: (manager: TwoFactorManager, req: RequestInternal, ctx: AuthContext, userId: string | undefined) => Promise<ResponseInternal>
) {
	return async (req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> => {
		const read = await ctx.options.strategy.read(ctx);
		try {
			const res = await run(twoFactorManager(ctx, read), req, ctx, sessionUserId(read));
			return { ...res, cookies: [...read.cookies, ...(res.cookies ?? [])] };
		} catch (error) {
			if (error instanceof InvalidTwoFactorCode) return answer(400, { failed: true, fieldErrors: { code: [error.message] }, formErrors: [] });
			if (error instanceof ReauthenticationRequired) {
				return failure(403, ['Sign in again to confirm it is you, then try again.'], { reauthenticate: true });
			}
			if (error instanceof InvalidRequest) return failure(error.status, [error.message]);
			throw error;
		}
	};
}

export const twoFactorSetup = manage(async (manager, req) => {
	const info = await manager.setup({ fresh: req.body.fresh === true || req.body.fresh === 'true' });
	return info ? answer(200, info) : failure(409, ['Two-step verification is already on.']);
});

export const twoFactorEnable = manage(async (manager, req, ctx, userId) => {
	// Codes confirming a set-up are guesses too: counted per user and address like the challenge's.
	if (!userId) throw new InvalidRequest('Sign in first', 403);
	const succeeded = await limitAttempt(ctx, req, 'two-factor', userId);
	const backupCodes = await manager.enable(req.body.code);
	await succeeded();
	return answer(200, { backupCodes });
});

export const twoFactorDisable = manage(async (manager) => {
	const disabled = await manager.disable();
	return disabled ? answer(200, { disabled }) : failure(409, ['Two-step verification is not on.']);
});

export const twoFactorBackupCodes = manage(async (manager) => {
	const backupCodes = await manager.regenerateBackupCodes();
	return backupCodes ? answer(200, { backupCodes }) : failure(409, ['Two-step verification is not on.']);
});

export const twoFactorDevices = manage(async (manager) => {
	await manager.forgetDevices();
	return answer(200, { forgotten: true });
});
