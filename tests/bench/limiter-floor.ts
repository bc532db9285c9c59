/**
 * SQLite's own share of the limiter's cost with counters in the libSQL adapter's database: the
 * adapter's counter statements (`counterStatements`, on its statement plumbing) run bare on a
 * connection of their own, with no limiter, guard or promise around them, for the attempts
 * `limiter.ts` makes: per attempt the pair (address, account), then, as the sign-in succeeds, the
 * refund of its address hit and the account's reset (sent together by `succeeded`), committed in
 * relaxed transactions of `inFlight` writes, as the commit group holds them with that many
 * sign-ins in flight. What
 * the limiter costs beyond this is its own code; this part no code around SQLite can save.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createClient, type InValue } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import Database from 'libsql';
import { migrate } from '../../src/lib/adapters/libsql/index.ts';
import { bindable, rowsOf, statementFor, type StatementCache } from '../../src/lib/adapters/libsql/engine/local-statements.ts';
import { type CounterStatement, counterStatements } from '../../src/lib/adapters/sqlite/counters.ts';
import { rateLimits } from '../../src/lib/adapters/sqlite/schema.ts';

/** The windows of `limiter.ts`'s budgets. */
const WINDOW_MS = 3_600_000;

/**
 * CPU µs per attempt of SQLite running the counter statements of `count` attempts (`address(i)`,
 * `account(i)`: attempt i's client address and email, as the sign-ins use them), in a new
 * database file under `dir`.
 */
export async function counterStatementsAlone(
	dir: string,
	count: number,
	inFlight: number,
	address: (i: number) => string,
	account: (i: number) => string
): Promise<number> {
	const file = join(dir, `floor-${inFlight}-${Date.now()}.db`);
	await migrate({ url: `file:${file}` });
	const client = createClient({ url: `file:${file}` });
	const { hitPair, release, reset } = counterStatements(drizzle(client), rateLimits);
	client.close();
	const conn: StatementCache = { db: new Database(file, { timeout: 0 }), statements: new Map() };
	conn.db.exec('PRAGMA journal_mode = WAL');
	const run = (stmts: CounterStatement[]) =>
		stmts.map(({ sql, args }) => {
			const prepared = statementFor(conn, sql);
			return prepared.reader ? rowsOf(prepared, args as InValue[], true) : (prepared.stmt.run(bindable(args as InValue[])), []);
		});
	// The limiter's keys: the address as it is, the account as a keyed hash (base64url, 43 chars),
	// hashed once each: hashing is the limiter's work, not SQLite's.
	const hashed = new Map<string, string>();
	const accountKey = (i: number) => {
		const email = account(i);
		let key = hashed.get(email);
		if (key === undefined) hashed.set(email, (key = `credentials:i:${createHash('sha256').update(email).digest('base64url')}`));
		return key;
	};
	/**
	 * Attempt i's pair; the sign-in succeeds, so its address hit is refunded and the account reset,
	 * after its pair, so in a later transaction.
	 */
	const later: (() => void)[] = [];
	const attempt = (i: number) => () => {
		const now = Date.now();
		const first = `credentials:a:${address(i)}`;
		const second = accountKey(i);
		const [counted] = run(
			hitPair([
				{ key: first, now, resetAt: now + WINDOW_MS },
				{ key: second, now, resetAt: now + WINDOW_MS, first, firstLimit: 1e9 }
			])
		);
		const resetAt = Number(counted?.[0]?.[1]);
		later.push(() => run([...release([{ key: first, resetAt }]), ...reset([{ key: second }])]));
	};
	const queue: (() => void)[] = [];
	let next = 0;
	const started = process.cpuUsage();
	while (next < count || queue.length > 0) {
		// One write per sign-in in flight in each transaction, as the commit group holds them.
		while (queue.length < inFlight && next < count) queue.push(attempt(next++));
		conn.db.exec('PRAGMA synchronous = NORMAL');
		conn.db.exec('BEGIN IMMEDIATE');
		for (const write of queue.splice(0, inFlight)) write();
		conn.db.exec('COMMIT');
		conn.db.exec('PRAGMA synchronous = FULL');
		queue.unshift(...later.splice(0));
	}
	const { user, system } = process.cpuUsage(started);
	conn.db.close();
	return (user + system) / count;
}
