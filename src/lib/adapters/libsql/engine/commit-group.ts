/**
 * Group commit for the writes whose loss on a power cut costs nothing (the rate limiter's counters,
 * new sessions): the writes of one kind asked for in the same turn of the event loop are committed
 * as ONE transaction.
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
 *
 * For writes that are each a request's own (a session row), one bad write must not fail the
 * others: with `isolate`, a group that failed for a reason it accepts (a constraint, not a busy
 * database) is committed again one write per transaction, so only the bad one fails. A write whose
 * request was abandoned (`signal` aborted) before its group's commit began is left out and
 * rejected. The group's commit is given a signal that aborts when any of its writes' does: one
 * that leaves while the group waits for a lock ends the attempt (nothing of it committed), and an
 * `isolate` that accepts that failure commits the others again one by one, each with its own
 * signal, so the one that left is rejected at once and the others wait as they would alone.
 */
import type { ResultSet } from '@libsql/client';
import { abortedError } from '../errors.js';
import type { Statements } from './local-statements.js';

/** Writes per transaction at most: ~2 ms of statements under a flood. */
export const MAX_GROUP = 64;

/** Commits one group; `signal` aborts when any of its writes' signals does. */
type Commit = (stmts: Statements, signal?: AbortSignal) => Promise<(ResultSet | undefined)[]>;

interface Pending {
	stmts: Statements;
	signal?: AbortSignal;
	resolve(results: (ResultSet | undefined)[]): void;
	reject(error: unknown): void;
}

/** A turn's end: `setImmediate` where there is one (Node), else a zero timer. */
const later: (run: () => void) => void =
	typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);

/** A commit that throws at once fails like one that fails later. */
const attempt = (commit: Commit, stmts: Statements, signal?: AbortSignal) =>
	new Promise<(ResultSet | undefined)[]>((resolve) => resolve(commit(stmts, signal)));

/** A signal that aborts when any of the writes' does; the lone write's own. */
function anyOf(group: Pending[]): AbortSignal | undefined {
	if (group.length === 1) return group[0]!.signal;
	const signals = group.flatMap((pending) => (pending.signal ? [pending.signal] : []));
	return signals.length ? AbortSignal.any(signals) : undefined;
}

/**
 * Returns `write(stmts, signal?)`: resolves to `stmts`' own results once the transaction holding
 * them has committed (`commit` runs one group's statements as one transaction). `isolate`: which
 * failures of a group of several are retried one write per transaction.
 */
export function commitGroup(
	commit: Commit,
	isolate?: (error: unknown) => boolean
): (stmts: Statements, signal?: AbortSignal) => Promise<(ResultSet | undefined)[]> {
	const queue: Pending[] = [];

	const flush = () => {
		const taken = queue.splice(0, MAX_GROUP);
		if (queue.length > 0) later(flush);
		const group = taken.filter((pending) => !pending.signal?.aborted);
		for (const pending of taken) if (pending.signal?.aborted) pending.reject(abortedError());
		if (group.length === 0) return;
		attempt(commit, group.flatMap((pending) => pending.stmts), anyOf(group)).then(
			(results) => {
				let at = 0;
				for (const pending of group) {
					pending.resolve(results.slice(at, at + pending.stmts.length));
					at += pending.stmts.length;
				}
			},
			(error: unknown) => {
				if (group.length > 1 && isolate?.(error)) {
					for (const pending of group) attempt(commit, pending.stmts, pending.signal).then(pending.resolve, pending.reject);
					return;
				}
				for (const pending of group) pending.reject(error);
			}
		);
	};

	return (stmts, signal) =>
		new Promise((resolve, reject) => {
			queue.push({ stmts, signal, resolve, reject });
			if (queue.length === 1) later(flush);
		});
}
