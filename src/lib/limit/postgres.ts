/**
 * `kitauth/limit/postgres`: rate-limit counters in PostgreSQL, shared by every instance.
 *
 * kitauth depends on no PostgreSQL client: hand in anything with `query(text, values)` resolving to
 * `{ rows }`, such as a `pg` Pool. Nothing is created implicitly: create the table once, with your
 * migrations (`rateLimitTableSQL()` is the DDL) or by calling `createTable()`.
 *
 * ```ts
 * import { PostgresStore } from 'kitauth/limit/postgres';
 * const store = PostgresStore(pool);          // pool = new pg.Pool(…)
 * await store.createTable();                  // or run rateLimitTableSQL() in a migration
 * ```
 *
 * A hit is ONE statement, `INSERT … ON CONFLICT DO UPDATE … RETURNING`: PostgreSQL locks the row
 * for it, so concurrent hits from any number of processes each get their own count. An attempt's
 * address and account hits (`hitPair`) are one statement too, two such upserts in CTEs. SET
 * expressions read the row as it was before the statement. A refund (`release`) is one UPDATE
 * whose WHERE names the window, run under the same row lock. Expired rows are deleted by `sweep`,
 * which the limiter runs every few minutes, in chunks (an index on `reset_at` keeps it cheap).
 */
import { windowMillis } from '../core/limit/window.js';
import type { LimitCount, LimitHit, LimitStore } from '../core/types/limit.js';

/** What the store needs from a client: `pg`'s Pool and Client fit. */
export interface PostgresQueryable {
	query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface PostgresStoreOptions {
	/** The table (default `kitauth_rate_limit`); may be schema-qualified: `auth.rate_limit`. */
	table?: string;
}

export interface PostgresLimitStore extends LimitStore {
	/** Creates the table and its index if they do not exist (`rateLimitTableSQL()`). */
	createTable(): Promise<void>;
}

const SWEEP_CHUNK = 1000;

/** The DDL of the table, as statements to run in order (idempotent). */
export function rateLimitTableSQL(table = 'kitauth_rate_limit'): string[] {
	const name = quoteName(table);
	const index = quoteIdentifier(`${table.split('.').at(-1)}_reset_at_idx`);
	return [
		`CREATE TABLE IF NOT EXISTS ${name} (key text PRIMARY KEY, count bigint NOT NULL, reset_at bigint NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS ${index} ON ${name} (reset_at)`
	];
}

export function PostgresStore(client: PostgresQueryable, options: PostgresStoreOptions = {}): PostgresLimitStore {
	const table = options.table ?? 'kitauth_rate_limit';
	const name = quoteName(table);
	// The pair in one statement: `b` upserts the second key ($4, window $5) from `a`'s row only,
	// and only while `a`'s count is within the limit ($6). Data-modifying CTEs run as one statement.
	const onConflict =
		`ON CONFLICT (key) DO UPDATE SET ` +
		`count = CASE WHEN c.reset_at <= $2::bigint THEN 1 ELSE c.count + 1 END, ` +
		`reset_at = CASE WHEN c.reset_at <= $2::bigint THEN EXCLUDED.reset_at ELSE c.reset_at END ` +
		`RETURNING count, reset_at`;
	const hitSQL = `INSERT INTO ${name} AS c (key, count, reset_at) VALUES ($1, 1, $2::bigint + $3::bigint) ${onConflict}`;
	const pairSQL =
		`WITH a AS (${hitSQL}), ` +
		`b AS (INSERT INTO ${name} AS c (key, count, reset_at) SELECT $4, 1, $2::bigint + $5::bigint FROM a WHERE a.count <= $6::bigint ${onConflict}) ` +
		`SELECT a.count AS a_count, a.reset_at AS a_reset_at, b.count AS b_count, b.reset_at AS b_reset_at FROM a LEFT JOIN b ON true`;
	const releaseSQL = `UPDATE ${name} SET count = count - 1 WHERE key = $1 AND reset_at = $2::bigint AND count > 0`;
	const resetSQL = `DELETE FROM ${name} WHERE key = $1`;
	const sweepSQL =
		`DELETE FROM ${name} WHERE key IN ` +
		`(SELECT key FROM ${name} WHERE reset_at <= $1::bigint LIMIT ${SWEEP_CHUNK}) RETURNING 1`;

	return {
		async hit(key: string, windowMs: number, now: number): Promise<LimitCount> {
			const window = windowMillis(windowMs);
			const { rows } = await client.query(hitSQL, [key, String(now), String(window)]);
			const row = rows[0] as { count?: unknown; reset_at?: unknown } | undefined;
			if (!row) throw new Error('PostgresStore: the hit returned no row');
			return counter(row.count, row.reset_at);
		},
		async hitPair(first: LimitHit, second: LimitHit, firstLimit: number, now: number): Promise<[LimitCount, LimitCount | undefined]> {
			const windows = [first.windowMs, second.windowMs].map((ms) => String(windowMillis(ms)));
			const values = [first.key, String(now), windows[0], second.key, windows[1], String(Math.floor(firstLimit))];
			const { rows } = await client.query(pairSQL, values);
			const row = rows[0] as Record<'a_count' | 'a_reset_at' | 'b_count' | 'b_reset_at', unknown> | undefined;
			if (!row) throw new Error('PostgresStore: the hit returned no row');
			// `b` is null when the second key was not counted (the first was over its limit).
			return [counter(row.a_count, row.a_reset_at), row.b_count == null ? undefined : counter(row.b_count, row.b_reset_at)];
		},
		async release(key: string, resetAt: number): Promise<void> {
			await client.query(releaseSQL, [key, String(resetAt)]);
		},
		async reset(key: string): Promise<void> {
			await client.query(resetSQL, [key]);
		},
		async sweep(now: number): Promise<number> {
			let total = 0;
			for (;;) {
				const { rows } = await client.query(sweepSQL, [String(now)]);
				total += rows.length;
				if (rows.length < SWEEP_CHUNK) return total;
			}
		},
		async createTable(): Promise<void> {
			for (const statement of rateLimitTableSQL(table)) await client.query(statement);
		}
	};
}

/** A counter from its columns (bigint columns arrive as strings from `pg`). */
function counter(count: unknown, resetAt: unknown): LimitCount {
	return { count: Number(count), resetAt: Number(resetAt) };
}

/** `name` or `schema.name`, each part quoted. */
function quoteName(table: string): string {
	const parts = table.split('.');
	if (parts.length > 2 || parts.some((part) => part === '')) {
		throw new TypeError(`PostgresStore: not a table name: ${JSON.stringify(table)}`);
	}
	return parts.map(quoteIdentifier).join('.');
}

function quoteIdentifier(identifier: string): string {
	return `"${identifier.replaceAll('"', '""')}"`;
}
