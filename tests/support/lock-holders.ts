/**
 * Another OS process holding a real lock on a SQLite file (POSIX record locks do not conflict
 * within one process, so the test process itself cannot stand in for it):
 * - `holdWriteLock`: SQLite's write lock (`sqlite-lock-holder.ts`, Node's own SQLite);
 *   `exclusive` on a rollback-journal database keeps readers out too;
 * - `holdReadMarks`: the WAL index's read-mark locks (`wal-index-lock-holder.py`), as SQLite holds
 *   them while it recovers the WAL: every call of every other process then waits inside SQLite.
 *
 * Each resolves once the lock is held, with a function that makes the holder let go and resolves
 * once it has exited (calling it again is harmless: use it as the test's cleanup too).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type Release = () => Promise<void>;

const support = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** Starts a lock-holding process; resolves once it printed that it holds the lock. */
export async function holdLock(command: string, args: string[]): Promise<Release> {
	const holder = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
	const exited = new Promise<void>((resolve) => holder.on('exit', () => resolve()));
	await new Promise<void>((resolve, reject) => {
		holder.stdout.once('data', () => resolve());
		holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
	});
	let released: Promise<void> | undefined;
	return () => (released ??= (holder.stdin.end(), exited));
}

/** SQLite's write lock (`BEGIN IMMEDIATE`), or `BEGIN EXCLUSIVE` (on a rollback journal, readers wait too). */
export const holdWriteLock = (path: string, mode: 'immediate' | 'exclusive' = 'exclusive'): Promise<Release> =>
	holdLock(process.execPath, ['--no-warnings', support('sqlite-lock-holder.ts'), path, mode]);

/**
 * Locks `first` to `first + count - 1` of the WAL index (default 3–7: every read mark); with
 * `holdMs`, let go after that long even if nobody asks (a test whose main thread is stuck inside
 * SQLite cannot ask).
 */
export const holdReadMarks = (path: string, options: { first?: number; count?: number; holdMs?: number } = {}): Promise<Release> =>
	holdLock('python3', [
		support('wal-index-lock-holder.py'),
		path,
		String(options.first ?? 3),
		String(options.count ?? 5),
		...(options.holdMs ? [String(options.holdMs)] : [])
	]);
