/**
 * Helpers for the PostgreSQL adapter tests: a migrated database on a real server (started by the
 * tests), and raw reads that bypass the adapter.
 */
import pg from 'pg';
import type { ConformanceDb } from './conformance.js';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from '../../src/lib/core/types/models.js';

const TIMESTAMP = 1114;

/** `timestamp` columns hold UTC (as drizzle writes them): read them as such. */
const utc = {
	getTypeParser: (oid: number, format?: string) =>
		oid === TIMESTAMP ? (value: string) => new Date(`${value}Z`) : pg.types.getTypeParser(oid, format as 'text')
};

type Queryable = Pick<pg.Pool, 'query'>;

async function one(client: Queryable, text: string, values: unknown[]): Promise<Record<string, unknown> | null> {
	const { rows } = await client.query<Record<string, unknown>>({ text, values, types: utc });
	return rows[0] ?? null;
}

/** Without the NULL columns: absent fields in the model. */
function present(row: Record<string, unknown>, keys?: string[]): Record<string, unknown> {
	return Object.fromEntries(Object.entries(row).filter(([key, v]) => v !== null || (keys !== undefined && !keys.includes(key))));
}

export function pgRawReads(client: Queryable): ConformanceDb {
	return {
		user: async (id) => (await one(client, 'SELECT * FROM "user" WHERE id = $1', [id])) as AdapterUser | null,
		async session(sessionToken) {
			const row = await one(client, 'SELECT * FROM "session" WHERE "sessionToken" = $1', [sessionToken]);
			if (!row) return null;
			// `factors` is one comma-separated column; the model leaves it out when not recorded.
			const { factors, ...rest } = row;
			return { ...rest, ...(typeof factors === 'string' ? { factors: factors.split(',') } : {}) } as unknown as AdapterSession;
		},
		async account({ provider, providerAccountId }) {
			const row = await one(client, 'SELECT * FROM "account" WHERE provider = $1 AND "providerAccountId" = $2', [provider, providerAccountId]);
			return row && (present(row) as unknown as AdapterAccount);
		},
		verificationToken: async ({ identifier, token }) =>
			(await one(client, 'SELECT * FROM "verificationToken" WHERE identifier = $1 AND token = $2', [identifier, token])) as VerificationToken | null,
		async authenticator(credentialID) {
			const row = await one(client, 'SELECT * FROM "authenticator" WHERE "credentialID" = $1', [credentialID]);
			// `counter` is a bigint: node-postgres reads it as a string.
			return row && ({ ...present(row, ['name', 'aaguid', 'createdAt', 'lastUsedAt']), counter: Number(row['counter']) } as unknown as AdapterAuthenticator);
		}
	};
}

/** Fresh, empty databases on one cluster, each a URL (named `prefix_1`, `prefix_2`, …). */
export function databaseMaker(cluster: { connectionString: string }, prefix: string): { fresh(): Promise<string>; end(): Promise<void> } {
	const admin = new pg.Pool({ connectionString: cluster.connectionString, max: 1 });
	let made = 0;
	return {
		async fresh() {
			const name = `${prefix}_${++made}`;
			await admin.query(`CREATE DATABASE ${name}`);
			return cluster.connectionString.replace(/\/postgres$/, `/${name}`);
		},
		end: () => admin.end()
	};
}
