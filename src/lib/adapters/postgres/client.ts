/**
 * Where the PostgreSQL adapter's database comes from, and the one function its statements run
 * through (`PgRun`): a node-postgres (`pg`) Pool or Client, a postgres.js (`postgres`) client, or
 * a drizzle database over either. kitauth imports neither driver: it calls what you hand it.
 *
 * Every statement is sent on its own, as an unnamed statement, outside any transaction and with
 * no session state (no `SET`, no named prepared statement, no advisory lock held across
 * statements), so any connection of a pool, or of a transaction pooler (PgBouncer in transaction
 * mode, Supabase's or Neon's pooler), may run it. drizzle builds the SQL of the per-request reads
 * once (`statements.ts`); the driver only binds values.
 */

/** node-postgres: a `Pool`, `Client` or `PoolClient`. */
export interface NodePgQueryable {
	query(config: { text: string; values: unknown[]; rowMode: 'array'; types: PgTypes }): Promise<{ rows: unknown[][] }>;
}

/** postgres.js: the `sql` function `postgres(url, options)` returns. */
export interface PostgresJsSql {
	// `never[]`: any client takes our values (postgres.js types its parameters narrowly).
	unsafe(query: string, parameters: never[], options: { prepare: boolean }): { values(): Promise<unknown[][]> };
	options: { parsers: Record<string, (value: string) => unknown>; serializers: Record<string, (value: unknown) => unknown> };
}

/** A drizzle database over either driver (`drizzle(pool)` from `drizzle-orm/node-postgres` or `drizzle-orm/postgres-js`). */
export interface PgDatabaseLike {
	$client: NodePgQueryable | PostgresJsSql;
}

export type PostgresSource = NodePgQueryable | PostgresJsSql | PgDatabaseLike;

/** Runs one statement with its values; the rows as arrays of values, in column order. */
export type PgRun = (sql: string, params: unknown[]) => Promise<unknown[][]>;

/** node-postgres's per-query type parsers. */
interface PgTypes {
	getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

const BOOL_OID = 16;

/**
 * Every value as PostgreSQL sends it (text), which drizzle's column decoders read, except
 * booleans (drizzle keeps what the driver gives). Above all, timestamps: node-postgres's own
 * parser reads a `timestamp` without time zone as local time; drizzle reads it as UTC.
 */
const rawTypes: PgTypes = {
	getTypeParser: (oid) => (oid === BOOL_OID ? (value: string) => value === 't' : (value: string) => value)
};

function isPostgresJs(client: NodePgQueryable | PostgresJsSql): client is PostgresJsSql {
	return typeof (client as PostgresJsSql).unsafe === 'function';
}

/** The date and time types postgres.js would parse (as drizzle's postgres-js driver lists them). */
const POSTGRES_JS_DATE_TYPES = ['1184', '1082', '1083', '1114', '1182', '1185', '1115', '1231'];

export function pgRun(source: PostgresSource): PgRun {
	const client = '$client' in source ? source.$client : source;
	if (isPostgresJs(client)) {
		// As drizzle's postgres-js driver does to the client it is given: dates as text both ways.
		const transparent = (value: unknown) => value;
		for (const type of POSTGRES_JS_DATE_TYPES) {
			client.options.parsers[type] = transparent as (value: string) => unknown;
			client.options.serializers[type] = transparent;
		}
		// `prepare: true` defers to the client's own `prepare` option (postgres.js ANDs them): set
		// it to false on a client behind a transaction pooler.
		return (sql, params) => client.unsafe(sql, params as never[], { prepare: true }).values();
	}
	return async (sql, params) => (await client.query({ text: sql, values: params, rowMode: 'array', types: rawTypes })).rows;
}

/** A node-postgres Pool: it hands out clients (`connect`) that go back with `release`. */
interface NodePgPool extends NodePgQueryable {
	connect(): Promise<NodePgQueryable & { release(error?: Error | boolean): void }>;
	totalCount: number;
}

/** postgres.js's transaction: `sql.begin(async (tx) => …)`. */
interface PostgresJsBegin {
	begin<T>(work: (tx: PostgresJsSql) => Promise<T>): Promise<T>;
}

/**
 * Runs `work` inside ONE transaction on one connection (`BEGIN` … `COMMIT`, rolled back when it
 * throws): for `migrate()`, whose DDL and records must land together. A transaction is what a
 * transaction pooler keeps on one server connection, so this works through one too.
 */
export async function inTransaction<T>(source: PostgresSource, work: (query: PgRun) => Promise<T>): Promise<T> {
	const client = '$client' in source ? source.$client : source;
	if (isPostgresJs(client)) {
		pgRun(client); // the date parsers, as for the adapter
		return (client as PostgresJsSql & PostgresJsBegin).begin((tx) => work(pgRun(tx)));
	}
	const pool = 'totalCount' in client && typeof (client as NodePgPool).connect === 'function' ? (client as NodePgPool) : undefined;
	const connection = pool ? await pool.connect() : client;
	const query = pgRun(connection);
	try {
		await query('BEGIN', []);
		try {
			const result = await work(query);
			await query('COMMIT', []);
			return result;
		} catch (error) {
			await query('ROLLBACK', []).catch(() => {});
			throw error;
		}
	} finally {
		if (pool) (connection as Awaited<ReturnType<NodePgPool['connect']>>).release();
	}
}
