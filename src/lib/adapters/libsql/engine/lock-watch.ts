/**
 * The lock watch: tells when another process holds the WAL index's read-mark locks of the local
 * file, so that the adapter's calls leave the main thread for the second connection
 * (`off-thread.ts`, which says why), and when they may come back.
 *
 * - A probe (`SELECT 1 FROM sqlite_schema`, a read transaction like any call's) runs on that
 *   connection every `probeInterval` ms. While a probe has been out longer than `SUSPECT_MS`, calls
 *   already go there (`active`: it may be stuck on the lock; if it was merely slow, they paid a
 *   hop). A probe, or any call there, that has not come back after `STALL_MS`, or came back with
 *   SQLITE_PROTOCOL, means the lock is held: `degraded` until it goes. So does a call on the main
 *   thread that took longer than `STALL_MS` or failed with SQLITE_PROTOCOL (`stalled()`). Where
 *   the kernel's lock table can be read (`wal-locks.ts`, Linux), a call that was merely slow (a
 *   machine short of CPU) is told apart: only a lock another process holds on a read mark counts.
 *   It lasts until a probe or call there that began after that comes back without SQLITE_PROTOCOL
 *   (one is started as soon as nothing else runs there).
 *
 * What remains: a call made on the main thread after another process took the lock and before
 * the next probe has been out `SUSPECT_MS` (at most `probeInterval` + `SUSPECT_MS`, 110 ms by
 * default; tests/bench/lock-window.ts measured a median of 68 ms and at most 105 ms, against 103
 * and 154 ms when only `STALL_MS` counted, on a quiet 2-core machine) still blocks the thread
 * until the lock goes or SQLite gives up (~10 s). After it, no call does. The adapter's
 * `alwaysOffThread` closes the window by running every call off the main thread, at a price on
 * the hot path: a session read then takes ~90–115 µs of main-thread time instead of ~13–23
 * (measured in process; the hop through `libsql/promise` costs the main thread more than the read
 * itself). A shorter `probeInterval` narrows the window for a price: each probe costs ~0.2–0.5 ms
 * of CPU (mostly waking an idle process), ~0.5 % of a core at 100 ms.
 */
import { errorCode } from '../errors.js';
import { readMarksHeldElsewhere } from './wal-locks.js';

/** How long a call may take before it counts as held up by the lock (a healthy one: < 1 ms). */
export const STALL_MS = 50;

/**
 * How long a probe may be out before calls stop going to the main thread (not yet a sign of the
 * lock: that takes `STALL_MS` and the kernel's word). A healthy probe comes back in well under
 * 1 ms; one held up by a machine short of CPU costs the calls made meanwhile only a hop each.
 */
export const SUSPECT_MS = 10;

/** How long, at least, the kernel's word that no read mark is held elsewhere stands for a suspect probe. */
const KERNEL_WORD_MS = 5;
/** At most this share of the time goes to asking the kernel (see `active`). */
const KERNEL_SHARE = 0.02;

/** The probe: any statement that reads the database begins a read transaction, as calls do. */
const PROBE = 'SELECT 1 FROM sqlite_schema LIMIT 1';

/** What the watch needs of the second connection's queue (`off-thread.ts`) to send its probe. */
export interface ProbeQueue {
	/** Whether the connection is open and nothing runs or waits there: a probe may go now. */
	idle(): boolean;
	/** Runs `work` there when its turn comes, with no deadline. */
	send(work: () => Promise<void>): Promise<void>;
	/** Reads `sql` on the connection (from within `work`). */
	read(sql: string): Promise<unknown>;
}

/** A call on the second connection, watched from when it begins until it is over. */
export interface WatchedCall {
	/** It came back with an answer. */
	succeeded(): void;
	/** It failed with `error`; `given`: the queue's own answer at a deadline, which says nothing about the lock. */
	failed(error: unknown, given: boolean): void;
	/** It is over, whatever its outcome: stop watching it. */
	stop(): void;
}

export interface LockWatch {
	/** Whether the lock is held, as far as the watch knows: calls run off the main thread until it goes. */
	readonly degraded: boolean;
	/**
	 * Whether calls should run off the main thread now: while `degraded`, and while a probe has been
	 * out longer than `SUSPECT_MS` (see the header comment).
	 */
	readonly active: boolean;
	/**
	 * A main-thread call was held up (`certain`: SQLite said it was the WAL index): run calls off
	 * the main thread until a probe says the lock is gone.
	 */
	stalled(certain: boolean): void;
	/** A call begins on the second connection: held up there for `STALL_MS` by the lock, it trips the watch. */
	begin(): WatchedCall;
	/** Nothing runs or waits on the second connection any more. */
	drained(): void;
	/** Stops the periodic probe. */
	close(): void;
}

/**
 * Starts watching the database at `path` through the probes it sends to `queue`, every
 * `probeInterval` ms (0: no periodic probe; only a stall trips the watch, and a probe then says
 * when the lock is gone).
 */
export function watchLocks(path: string, probeInterval: number, queue: ProbeQueue): LockWatch {
	/** Bumped by each sign of the lock; a job that began at the current epoch and ends well clears it. */
	let epoch = 0;
	let tripped = false;
	/** When the probe running now began (`performance.now()`); `undefined`: none runs. */
	let probing: number | undefined;
	/** The kernel's last word on a suspect probe (see `active`): when, and whether no lock was held. */
	let kernelAt = Number.NEGATIVE_INFINITY;
	let kernelWord = KERNEL_WORD_MS;
	let kernelSaysFree = false;

	/** Whether a call held up for `STALL_MS` was held up by the lock (not by a lack of CPU). */
	const lockSuspected = () => readMarksHeldElsewhere(path) !== false;

	/** A sign of the lock: calls run off the main thread until one that begins after it ends well. */
	const trip = () => {
		epoch++;
		tripped = true;
		probe();
	};

	function probe(): void {
		if (!queue.idle()) return;
		void queue
			.send(async () => {
				probing = performance.now();
				try {
					await queue.read(PROBE);
				} finally {
					probing = undefined;
				}
			})
			.catch(() => {});
	}

	/**
	 * Trips if the job that just began is still running `STALL_MS` from now and the lock is to
	 * blame (else looks again later). Checked from a `setImmediate`, which runs after the event
	 * loop's poll phase, where a call that came back delivers its answer: a main thread that was
	 * itself busy meanwhile does not make a quick call look held up.
	 */
	const watchFor = (stillRunning: () => boolean) => {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const arm = () => {
			timer = setTimeout(
				() =>
					setImmediate(() => {
						if (!stillRunning()) return;
						if (lockSuspected()) trip();
						else arm();
					}),
				STALL_MS
			);
			timer.unref?.();
		};
		arm();
		return { stop: () => clearTimeout(timer) };
	};

	const timer = probeInterval > 0 ? setInterval(probe, probeInterval) : undefined;
	timer?.unref?.();

	return {
		get degraded() {
			return tripped;
		},
		get active() {
			// A probe out longer than a healthy one takes may be stuck on the lock: until it comes
			// back, calls wait their turn on the second connection rather than risk the main thread
			// (at worst, if it was merely slow, they paid a hop). Noticing then takes `SUSPECT_MS`,
			// not `STALL_MS`.
			if (tripped) return true;
			if (probing === undefined) return false;
			const now = performance.now();
			if (now - probing <= SUSPECT_MS) return false;
			// Under load a probe looks out long when it came back but the event loop, busy with
			// requests, has not taken its answer yet: then every call would pay a hop (measured:
			// +20–30 % CPU per sign-in with database sessions). Where the kernel's lock table can be
			// read, it tells a held lock from that. A look costs 25 µs on an idle machine and up to
			// ~0.5 ms under load (measured), so its word holds long enough to keep the looks under
			// `KERNEL_SHARE` of the time, and at least `KERNEL_WORD_MS`.
			if (now - kernelAt > kernelWord) {
				kernelSaysFree = readMarksHeldElsewhere(path) === false;
				kernelAt = performance.now();
				kernelWord = Math.max(KERNEL_WORD_MS, (kernelAt - now) / KERNEL_SHARE);
			}
			return !kernelSaysFree;
		},
		stalled(certain) {
			if (certain || lockSuspected()) trip();
		},
		begin() {
			const started = epoch;
			let finished = false;
			const watch = watchFor(() => !finished && !tripped);
			return {
				succeeded() {
					if (started === epoch) tripped = false;
				},
				failed(error, given) {
					// SQLite gave up on the WAL index: still held. Any other answer of SQLite means this
					// call got its read transaction (or was refused at once): the lock did not hold it up.
					if (errorCode(error) === 'SQLITE_PROTOCOL') trip();
					else if (started === epoch && !given) tripped = false;
				},
				stop() {
					finished = true;
					watch.stop();
				}
			};
		},
		drained() {
			// Still degraded with nothing left to run: ask again.
			if (tripped) probe();
		},
		close() {
			if (timer) clearInterval(timer);
		}
	};
}
