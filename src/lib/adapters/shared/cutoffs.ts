/**
 * Per-user session cutoffs (kitauth's `getSessionsValidAfter` / `setSessionsValidAfter`), over a
 * dialect's statements: JWT session tokens issued before a user's cutoff no longer open. One row
 * per user who ever had their sessions ended; a cutoff only moves forward (the statement keeps the
 * later one, so concurrent calls from any process agree).
 */
import type { Adapter } from '../../core/types/adapter.js';
import { toDate } from './rows.js';
import type { DialectParts } from './statements.js';

type CutoffMethods = Required<Pick<Adapter, 'getSessionsValidAfter' | 'setSessionsValidAfter'>>;

export function cutoffMethods({ statements, fail }: DialectParts): CutoffMethods {
	const st = statements.cutoffs;
	return {
		getSessionsValidAfter: async (userId) => toDate(await st.cutoff(userId)),

		setSessionsValidAfter: async (userId, at) => {
			const ms = at instanceof Date ? at.getTime() : Number.NaN;
			if (!Number.isFinite(ms)) throw fail('setSessionsValidAfter', 'INVALID_ARGUMENT', 'at must be a valid Date');
			await st.raiseCutoff(userId, new Date(ms));
		}
	};
}
