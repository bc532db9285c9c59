/**
 * The SQLite statements of two-factor records (libSQL and D1), each ONE conditional statement run
 * as one `batch` (see `shared/statements.ts` TwoFactorStatements).
 */
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Row } from '../shared/rows.js';
import type { TwoFactorStatements } from '../shared/statements.js';
import type { SQLiteExec } from './exec.js';
import type { SQLiteTables } from './tables.js';

export function sqliteTwoFactors({ db, run, batch }: SQLiteExec, t: SQLiteTables['twoFactorsTable']): TwoFactorStatements {
	const isUser = (userId: string) => eq(t.userId, userId);
	const isOn = (userId: string) => and(isUser(userId), isNotNull(t.enabledAt));
	/** One write: its RETURNING rows. */
	const written = async (query: BatchItem<'sqlite'>) => (await batch([query]))[0] as Row[];
	const changed = async (operation: string, query: BatchItem<'sqlite'>) => run(operation, async () => (await written(query)).length > 0);

	return {
		twoFactor: (userId) => run('getTwoFactor', async () => (await db.select().from(t).where(isUser(userId)).get()) as Row | undefined),

		begin: (userId, secret, now) =>
			changed(
				'beginTwoFactor',
				db
					.insert(t)
					.values({ userId, secret, enabledAt: null, lastStep: null, backupCodes: ',', createdAt: now })
					.onConflictDoUpdate({ target: t.userId, set: { secret, lastStep: null, backupCodes: ',', createdAt: now }, setWhere: isNull(t.enabledAt) })
					.returning({ userId: t.userId })
			),

		enable: (userId, { secret, step, backupCodes, enabledAt }) =>
			changed(
				'enableTwoFactor',
				db
					.update(t)
					.set({ enabledAt, lastStep: step, backupCodes, devicesValidAfter: enabledAt })
					.where(and(isUser(userId), isNull(t.enabledAt), eq(t.secret, secret)))
					.returning({ userId: t.userId })
			),

		useStep: (userId, step) =>
			changed(
				'useTwoFactorStep',
				db
					.update(t)
					.set({ lastStep: step })
					.where(and(isOn(userId), or(isNull(t.lastStep), lt(t.lastStep, step))))
					.returning({ userId: t.userId })
			),

		useBackupCode: (userId, needle) =>
			run('useBackupCode', async () => {
				const [row] = await written(
					db
						.update(t)
						.set({ backupCodes: sql`replace(${t.backupCodes}, ${needle}, ',')` })
						.where(and(isOn(userId), sql`instr(${t.backupCodes}, ${needle}) > 0`))
						.returning({ backupCodes: t.backupCodes })
				);
				return row ? String(row['backupCodes']) : undefined;
			}),

		replaceBackupCodes: (userId, backupCodes) =>
			changed('replaceBackupCodes', db.update(t).set({ backupCodes }).where(isOn(userId)).returning({ userId: t.userId })),

		reseal: (userId, expected, secret) =>
			changed('resealTwoFactorSecret', db.update(t).set({ secret }).where(and(isUser(userId), eq(t.secret, expected))).returning({ userId: t.userId })),

		remove: (userId) => changed('deleteTwoFactor', db.delete(t).where(isUser(userId)).returning({ userId: t.userId })),

		forgetDevices: (userId, at) =>
			run('forgetTwoFactorDevices', async () => {
				await batch([db.update(t).set({ devicesValidAfter: sql`MAX(COALESCE(${t.devicesValidAfter}, 0), ${at.getTime()})` }).where(isUser(userId))]);
			})
	};
}
