/**
 * Group commit for the rate limiter's counters: the counter writes asked for in the same turn of
 * the event loop are committed as ONE transaction.
 *
 * Why. A counter write is a few µs of SQL, but its own transaction costs SQLite its WAL frames and
 * commit (measured on this machine kind: ~60–100 µs per transaction against ~10 µs per upsert), and
 * every sign-in attempt makes one (its address and account hits) and a success after earlier
 * attempts another (the account's reset). Under load, when the limiter matters most (a flood of
 * guesses), many attempts are counted in the same turn; one commit for all of them keeps the
 * limiter's cost per attempt falling as the load rises. A lone attempt waits for nothing more than
 * the end of the current turn (`setImmediate`).
 *
 * Semantics are unchanged: the writes run in the order they were asked for, inside one
 * transaction, so each sees the ones before it exactly as if committed one by one (two attempts on
 * the same address count 1 then 2), and other processes see all or none of them. A group that
 * fails (busy past the deadline, a closed database) rejects every write in it; nothing of it was
 * committed. A group is capped (`MAX_GROUP` writes): a flood's group must not hold the write lock
 * for long; the rest go in the next turn.
 */
import type { ResultSet } from '@libsql/client';
import type { Statements } from './local-statements.js';

/** Writes per transaction at most: ~2 ms of statements under a flood. */
export const MAX_GROUP = 64;

type Commit = (stmts: Statements) => Promise<(ResultSet | undefined)[]>;

interface Pending {
	stmts: Statements;
	resolve(results: (ResultSet | undefined)[]): void;
	reject(error: unknown): void;
}

/** A turn's end: `setImmediate` where there is one (Node), else a zero timer. */
const later: (run: () => void) => void =
	typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);

/**
 * Returns `write(stmts)`: resolves to `stmts`' own results once the transaction holding them has
 * committed (`commit` runs one group's statements as one transaction).
 */
export function commitGroup(commit: Commit): (stmts: Statements) => Promise<(ResultSet | undefined)[]> {
	const queue: Pending[] = [];

	const flush = () => {
		const group = queue.splice(0, MAX_GROUP);
		if (queue.length > 0) later(flush);
		// A commit that throws at once rejects its group like one that fails later.
		new Promise<(ResultSet | undefined)[]>((resolve) => resolve(commit(group.flatMap((pending) => pending.stmts)))).then(
			(results) => {
				let at = 0;
				for (const pending of group) {
					pending.resolve(results.slice(at, at + pending.stmts.length));
					at += pending.stmts.length;
				}
			},
			(error: unknown) => {
				for (const pending of group) pending.reject(error);
			}
		);
	};

	return (stmts) =>
		new Promise((resolve, reject) => {
			queue.push({ stmts, resolve, reject });
			if (queue.length === 1) later(flush);
		});
}
