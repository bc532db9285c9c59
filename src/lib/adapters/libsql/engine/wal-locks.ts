/**
 * Whether another process holds the WAL index's read-mark locks of a database, as the kernel sees
 * them: on Linux, `/proc/locks` lists every POSIX record lock (holder's pid, device, inode, byte
 * range). Node has no `fcntl(F_GETLK)`; this is the one way to ask without taking a lock, and it
 * costs a fraction of a millisecond, so the lock watch (`lock-watch.ts`) reads it only to confirm a
 * suspicion (a call held up for `STALL_MS`): a machine short of CPU can hold a call up that long
 * too, and then calls must stay on the main thread.
 */
import { readFileSync, statSync } from 'node:fs';

/** SQLite's os_unix.c: the locks live at 120 + n in the `-shm` file; n = 3–7 are the read marks. */
const FIRST_READ_MARK = 123;
const LAST_READ_MARK = 127;

/**
 * `true`: another process holds an exclusive lock on a read mark of `database` (its `-shm` file);
 * `false`: none does; `undefined`: cannot tell (no `/proc/locks`, no `-shm` file).
 */
export function readMarksHeldElsewhere(database: string): boolean | undefined {
	let ino: number;
	let major: number;
	let minor: number;
	let table: string;
	try {
		const stat = statSync(`${database}-shm`);
		ino = stat.ino;
		// glibc's `major()`/`minor()` of `st_dev`.
		major = ((stat.dev >> 8) & 0xfff) | (Math.floor(stat.dev / 2 ** 32) & ~0xfff);
		minor = (stat.dev & 0xff) | ((stat.dev >> 12) & ~0xff & 0xfffff);
		table = readFileSync('/proc/locks', 'latin1');
	} catch {
		return undefined;
	}
	for (const line of table.split('\n')) {
		// `1: POSIX  ADVISORY  WRITE 27348 fe:00:2154969 123 127`; `1: -> …` is a waiter, not a holder.
		const match = /^\d+:\s+(?:POSIX|OFDLCK)\s+\S+\s+WRITE\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s+(\d+)\s+(\d+|EOF)\s*$/i.exec(line);
		if (!match) continue;
		const [, pid, devMajor, devMinor, inode, start, end] = match as unknown as string[];
		if (Number(inode) !== ino || parseInt(devMajor!, 16) !== major || parseInt(devMinor!, 16) !== minor) continue;
		if (Number(pid) === process.pid) continue;
		const last = end === 'EOF' ? Number.POSITIVE_INFINITY : Number(end);
		if (Number(start) <= LAST_READ_MARK && last >= FIRST_READ_MARK) return true;
	}
	return false;
}
