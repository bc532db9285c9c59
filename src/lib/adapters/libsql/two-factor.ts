/**
 * Two-factor records (kitauth's `getTwoFactor`, `beginTwoFactor`, …): one row per user, every
 * change ONE conditional statement on it, so concurrent requests from any process agree — a TOTP
 * step is recorded only if later than the last (a code is accepted once), a backup code's hash is
 * removed only if present (a code is used once), two-factor is turned on only while off and while
 * the secret is the one the code was checked against. The secret arrives sealed and the codes
 * hashed: stored as given.
 */
import { and, eq, isNotNull, isNull, or, lt, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterTwoFactor } from '../../core/types/two-factor.js';
import type { AdapterContext } from './context.js';
import { LibSQLAdapterError } from './errors.js';
import { toDate, type Row } from './rows.js';

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
export function encodeBackupCodes(operation: string, hashes: readonly string[]): string {
	for (const hash of hashes) {
		if (typeof hash !== 'string' || !HASH.test(hash)) throw new LibSQLAdapterError(operation, 'INVALID_ARGUMENT', 'a backup code hash must be hex');
	}
	return `,${hashes.join(',')}${hashes.length ? ',' : ''}`;
}

export function decodeBackupCodes(value: unknown): string[] {
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

function checkStep(operation: string, step: number): void {
	if (!Number.isSafeInteger(step) || step < 0) throw new LibSQLAdapterError(operation, 'INVALID_ARGUMENT', 'step must be a non-negative integer');
}

export function twoFactorMethods({ db, tables, guard }: AdapterContext): TwoFactorMethods {
	const t = tables.twoFactorsTable;
	const isUser = (userId: string) => eq(t.userId, userId);
	/** One write, as one transaction: did it change a row? */
	const changed = async (query: Parameters<typeof db.batch>[0][0]) => ((await db.batch([query]))[0] as Row[]).length > 0;

	return {
		getTwoFactor: (userId) =>
			guard.run('getTwoFactor', async () => {
				const row: Row | undefined = await db.select().from(t).where(isUser(userId)).get();
				return row ? toTwoFactor(row) : null;
			}),

		beginTwoFactor: (userId, secret) =>
			guard.run('beginTwoFactor', () =>
				changed(
					db
						.insert(t)
						.values({ userId, secret, enabledAt: null, lastStep: null, backupCodes: ',', createdAt: new Date() })
						.onConflictDoUpdate({
							target: t.userId,
							set: { secret, lastStep: null, backupCodes: ',', createdAt: new Date() },
							setWhere: isNull(t.enabledAt)
						})
						.returning({ userId: t.userId })
				)
			),

		enableTwoFactor: (userId, { secret, step, backupCodes, enabledAt }) =>
			guard.run('enableTwoFactor', () => {
				checkStep('enableTwoFactor', step);
				const codes = encodeBackupCodes('enableTwoFactor', backupCodes);
				return changed(
					db
						.update(t)
						.set({ enabledAt, lastStep: step, backupCodes: codes, devicesValidAfter: enabledAt })
						.where(and(isUser(userId), isNull(t.enabledAt), eq(t.secret, secret)))
						.returning({ userId: t.userId })
				);
			}),

		useTwoFactorStep: (userId, step) =>
			guard.run('useTwoFactorStep', () => {
				checkStep('useTwoFactorStep', step);
				return changed(
					db
						.update(t)
						.set({ lastStep: step })
						.where(and(isUser(userId), isNotNull(t.enabledAt), or(isNull(t.lastStep), lt(t.lastStep, step))))
						.returning({ userId: t.userId })
				);
			}),

		useBackupCode: (userId, hash) =>
			guard.run('useBackupCode', async () => {
				const needle = encodeBackupCodes('useBackupCode', [hash]);
				const [rows] = await db.batch([
					db
						.update(t)
						.set({ backupCodes: sql`replace(${t.backupCodes}, ${needle}, ',')` })
						.where(and(isUser(userId), isNotNull(t.enabledAt), sql`instr(${t.backupCodes}, ${needle}) > 0`))
						.returning({ backupCodes: t.backupCodes })
				]);
				const row = rows[0];
				return row ? decodeBackupCodes(row.backupCodes).length : null;
			}),

		replaceBackupCodes: (userId, backupCodes) =>
			guard.run('replaceBackupCodes', () => {
				const codes = encodeBackupCodes('replaceBackupCodes', backupCodes);
				return changed(
					db.update(t).set({ backupCodes: codes }).where(and(isUser(userId), isNotNull(t.enabledAt))).returning({ userId: t.userId })
				);
			}),

		resealTwoFactorSecret: (userId, expected, secret) =>
			guard.run('resealTwoFactorSecret', () =>
				changed(db.update(t).set({ secret }).where(and(isUser(userId), eq(t.secret, expected))).returning({ userId: t.userId }))
			),

		deleteTwoFactor: (userId) =>
			guard.run('deleteTwoFactor', () => changed(db.delete(t).where(isUser(userId)).returning({ userId: t.userId }))),

		forgetTwoFactorDevices: (userId, at) =>
			guard.run('forgetTwoFactorDevices', async () => {
				const ms = at instanceof Date ? at.getTime() : Number.NaN;
				if (!Number.isFinite(ms)) throw new LibSQLAdapterError('forgetTwoFactorDevices', 'INVALID_ARGUMENT', 'at must be a valid Date');
				await db.batch([
					db
						.update(t)
						.set({ devicesValidAfter: sql`MAX(COALESCE(${t.devicesValidAfter}, 0), ${ms})` })
						.where(isUser(userId))
				]);
			})
	};
}
