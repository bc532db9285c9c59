/**
 * Two-factor records (kitauth's `getTwoFactor`, `beginTwoFactor`, …), over a dialect's
 * statements: one row per user, every change ONE conditional statement on it, so concurrent
 * requests from any process agree — a TOTP step is recorded only if later than the last (a code is
 * accepted once), a backup code's hash is removed only if present (a code is used once),
 * two-factor is turned on only while off and while the secret is the one the code was checked
 * against. The secret arrives sealed and the codes hashed: stored as given.
 */
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterTwoFactor } from '../../core/types/two-factor.js';
import { toDate, type Row } from './rows.js';
import type { DialectParts, Fail } from './statements.js';

type TwoFactorMethods = Required<
	Pick<
		Adapter,
		| 'getTwoFactor'
		| 'beginTwoFactor'
		| 'enableTwoFactor'
		| 'useTwoFactorStep'
		| 'useBackupCode'
		| 'replaceBackupCodes'
		| 'resealTwoFactorSecret'
		| 'deleteTwoFactor'
		| 'forgetTwoFactorDevices'
	>
>;

/** A code's hash as the core makes it: hex (so never the list's separator). */
const HASH = /^[0-9a-f]{16,128}$/;

/** The stored list: `,h1,h2,` (`,` when empty), so one hash is found and removed as `,h,`. */
function encodeBackupCodes(fail: Fail, operation: string, hashes: readonly string[]): string {
	for (const hash of hashes) {
		if (typeof hash !== 'string' || !HASH.test(hash)) throw fail(operation, 'INVALID_ARGUMENT', 'a backup code hash must be hex');
	}
	return `,${hashes.join(',')}${hashes.length ? ',' : ''}`;
}

function decodeBackupCodes(value: unknown): string[] {
	return typeof value === 'string' ? value.split(',').filter(Boolean) : [];
}

function toTwoFactor(row: Row): AdapterTwoFactor {
	return {
		userId: String(row['userId']),
		secret: String(row['secret']),
		enabledAt: toDate(row['enabledAt']),
		lastStep: row['lastStep'] === null || row['lastStep'] === undefined ? null : Number(row['lastStep']),
		backupCodes: decodeBackupCodes(row['backupCodes']),
		devicesValidAfter: toDate(row['devicesValidAfter'])
	};
}

export function twoFactorMethods({ statements, fail }: DialectParts): TwoFactorMethods {
	const st = statements.twoFactors;
	const checkStep = (operation: string, step: number) => {
		if (!Number.isSafeInteger(step) || step < 0) throw fail(operation, 'INVALID_ARGUMENT', 'step must be a non-negative integer');
	};

	return {
		getTwoFactor: async (userId) => {
			const row = await st.twoFactor(userId);
			return row ? toTwoFactor(row) : null;
		},

		beginTwoFactor: (userId, secret) => st.begin(userId, secret, new Date()),

		enableTwoFactor: async (userId, { secret, step, backupCodes, enabledAt }) => {
			checkStep('enableTwoFactor', step);
			return st.enable(userId, { secret, step, backupCodes: encodeBackupCodes(fail, 'enableTwoFactor', backupCodes), enabledAt });
		},

		useTwoFactorStep: async (userId, step) => {
			checkStep('useTwoFactorStep', step);
			return st.useStep(userId, step);
		},

		useBackupCode: async (userId, hash) => {
			const left = await st.useBackupCode(userId, encodeBackupCodes(fail, 'useBackupCode', [hash]));
			return left === undefined ? null : decodeBackupCodes(left).length;
		},

		replaceBackupCodes: async (userId, backupCodes) =>
			st.replaceBackupCodes(userId, encodeBackupCodes(fail, 'replaceBackupCodes', backupCodes)),

		resealTwoFactorSecret: (userId, expected, secret) => st.reseal(userId, expected, secret),

		deleteTwoFactor: (userId) => st.remove(userId),

		forgetTwoFactorDevices: async (userId, at) => {
			const ms = at instanceof Date ? at.getTime() : Number.NaN;
			if (!Number.isFinite(ms)) throw fail('forgetTwoFactorDevices', 'INVALID_ARGUMENT', 'at must be a valid Date');
			await st.forgetDevices(userId, new Date(ms));
		}
	};
}
