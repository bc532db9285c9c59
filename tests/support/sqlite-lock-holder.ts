/**
 * Holds SQLite's write lock on a database file (with Node's own SQLite) until stdin closes, then
 * rolls back. A separate process on purpose: POSIX file locks do not conflict within one process,
 * so a second SQLite library in the test process would not block libsql.
 *
 *     node tests/support/sqlite-lock-holder.ts <path> [exclusive|immediate]
 *
 * prints "locked" once it holds the lock (waiting up to 10 s for a writer that holds it now). `exclusive` (the default) is `BEGIN EXCLUSIVE`: with a
 * rollback journal it keeps readers out too; in WAL mode it is the write lock, like `immediate`
 * (`BEGIN IMMEDIATE`), which lets readers in under either journal.
 */
import { DatabaseSync } from 'node:sqlite';

const mode = process.argv[3] === 'immediate' ? 'IMMEDIATE' : 'EXCLUSIVE';
const db = new DatabaseSync(process.argv[2] ?? '');
// Another process may be writing at this moment: wait for it, as any writer would.
db.exec('PRAGMA busy_timeout = 10000');
db.exec(`BEGIN ${mode}`);
db.exec(`INSERT INTO "verificationToken" VALUES ('locker@example.com', 'x', 0)`);
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
	db.exec('ROLLBACK');
	db.close();
	process.exit(0);
});
