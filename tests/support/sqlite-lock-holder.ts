/**
 * Holds `BEGIN EXCLUSIVE` on a database file (with Node's own SQLite) until stdin closes, then rolls
 * back. A separate process on purpose: POSIX file locks do not conflict within one process, so a
 * second SQLite library in the test process would not block libsql.
 *
 *     node tests/support/sqlite-lock-holder.ts <path>   → prints "locked" once it holds the lock
 */
import { DatabaseSync } from 'node:sqlite';

const db = new DatabaseSync(process.argv[2] ?? '');
db.exec('BEGIN EXCLUSIVE');
db.exec(`INSERT INTO "verificationToken" VALUES ('locker@example.com', 'x', 0)`);
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
	db.exec('ROLLBACK');
	db.close();
	process.exit(0);
});
