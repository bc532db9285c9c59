/**
 * Two-factor authentication for the signed-in user: its status, setting TOTP up (a correct code
 * from the app is needed before it is on), turning it off and making new backup codes (both need
 * a recent sign-in, the sudo window), and forgetting remembered browsers. The server API
 * (`CurrentSession.twoFactor`), the REST actions and the form actions all come here.
 */
import type { AuthContext } from '../context.js';
import { InvalidRequest } from '../errors.js';
import { requireRecentAuthentication } from '../session/recent.js';
import { sessionUserId } from '../session/end.js';
import type { SessionRead } from '../session/types.js';
import type { User } from '../types/models.js';
import type { TwoFactorManager } from '../types/two-factor.js';
import { beginSetup, confirmSetup, regenerateBackupCodes } from './codes.js';
import { mustHave } from './step.js';

/** The manager of the request's user; every method throws `InvalidRequest` (403) when signed out. */
export function twoFactorManager(ctx: AuthContext, read: SessionRead): TwoFactorManager {
	const setup = () => {
		const configured = ctx.options.twoFactor;
		if (!configured) throw new InvalidRequest('two-factor authentication is not configured', 404, 'twoFactor.answer.unavailable');
		return configured;
	};
	const user = (): User & { id: string } => {
		const id = sessionUserId(read);
		if (!id) throw new InvalidRequest('Sign in first', 403, 'twoFactor.answer.signInFirst');
		const email = read.user?.email ?? (typeof read.token?.email === 'string' ? read.token.email : null);
		return { ...read.user, id, email };
	};
	return Object.freeze({
		async status() {
			const who = user();
			const record = await setup().store.getTwoFactor(who.id);
			return {
				enabled: !!record?.enabledAt,
				enabledAt: record?.enabledAt ?? null,
				backupCodesLeft: record?.enabledAt ? record.backupCodes.length : 0,
				required: await mustHave(setup(), who)
			};
		},
		setup: (options?: { fresh?: boolean }) => {
			setup();
			return beginSetup(ctx, user(), options);
		},
		async enable(code: unknown) {
			setup();
			return confirmSetup(ctx, user().id, code);
		},
		async disable(options: { maxAge?: number } = {}) {
			const { store } = setup();
			const { id } = user();
			requireRecentAuthentication(read, options.maxAge);
			// An unfinished setup is removed too, but it was never on: no event, and `false`.
			const wasOn = !!(await store.getTwoFactor(id))?.enabledAt;
			const deleted = await store.deleteTwoFactor(id);
			if (deleted && wasOn) await ctx.options.events.twoFactorDisabled?.({ userId: id });
			return deleted && wasOn;
		},
		async regenerateBackupCodes(options: { maxAge?: number } = {}) {
			setup();
			const { id } = user();
			requireRecentAuthentication(read, options.maxAge);
			return regenerateBackupCodes(ctx, id);
		},
		async forgetDevices() {
			await setup().store.forgetTwoFactorDevices(user().id, new Date());
		}
	});
}
