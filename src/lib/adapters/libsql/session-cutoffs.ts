/**
 * Per-user session cutoffs (kitauth's `getSessionsValidAfter` / `setSessionsValidAfter`): JWT
 * session tokens issued before a user's cutoff no longer open. One row per user who ever had their
 * sessions ended; a cutoff only moves forward (`MAX` in the upsert, so concurrent calls from any
 * process keep the later one).
 */
import { eq, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterContext } from './context.js';
import { hotRead } from './hot-reads.js';
import { LibSQLAdapterError } from './errors.js';

type CutoffMethods = Required<Pick<Adapter, 'getSessionsValidAfter' | 'setSessionsValidAfter'>>;

export function sessionCutoffMethods({ db, client, tables, guard }: AdapterContext): CutoffMethods {
	const cutoffs = tables.sessionCutoffsTable;
	// Read on JWT session reads (at most once per `revocationCheckInterval` per user and process).
	const cutoffOf = hotRead(
		client,
		db.select().from(cutoffs).where(eq(cutoffs.userId, sql.placeholder('userId'))),
		{ cutoff: cutoffs },
		{ single: true },
		(row) => {
			const value = row?.cutoff['validAfter'];
			return value instanceof Date ? value : value === undefined || value === null ? null : new Date(Number(value));
		}
	);
	return {
		getSessionsValidAfter: (userId) => guard.read('getSessionsValidAfter', cutoffOf, userId),

		setSessionsValidAfter: (userId, at) =>
			guard.run('setSessionsValidAfter', async () => {
				const ms = at instanceof Date ? at.getTime() : Number.NaN;
				if (!Number.isFinite(ms)) throw new LibSQLAdapterError('setSessionsValidAfter', 'INVALID_ARGUMENT', 'at must be a valid Date');
				await db.batch([
					db
						.insert(cutoffs)
						.values({ userId, validAfter: new Date(ms) })
						.onConflictDoUpdate({
							target: cutoffs.userId,
							set: { validAfter: sql`MAX(${cutoffs.validAfter}, excluded.${sql.identifier('validAfter')})` }
						})
				]);
			})
	};
}
