/**
 * Helpers for the libSQL adapter tests: temporary databases and raw reads that bypass the adapter.
 */
import { createClient, type Client, type InStatement, type Row } from '@libsql/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceDb } from './conformance.js';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from '../../src/lib/core/types/models.js';

export interface TempDatabase {
	dir: string;
	path: string;
	url: string;
	remove(): void;
}

export function tempDatabase(prefix = 'kitauth-libsql-'): TempDatabase {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	const path = join(dir, 'auth.db');
	return { dir, path, url: `file:${path}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const date = (value: unknown): Date | null => (value === null ? null : new Date(Number(value)));

async function one(client: Client, sql: string, args: (string | number)[]): Promise<Row | null> {
	const result = await client.execute({ sql, args });
	return result.rows[0] ?? null;
}

/** Dates are stored as integer milliseconds: read them as such, then as the model's Date. */
export function rawReads(client: Client): ConformanceDb {
	return {
		async user(id) {
			const row = await one(client, 'SELECT * FROM "user" WHERE id = ?', [id]);
			return row && ({ ...row, emailVerified: date(row['emailVerified']) } as unknown as AdapterUser);
		},
		async session(sessionToken) {
			const row = await one(client, 'SELECT * FROM "session" WHERE sessionToken = ?', [sessionToken]);
			if (!row) return null;
			const { factors, ...rest } = row;
			const dates = { expires: date(row['expires']), createdAt: date(row['createdAt']) };
			// `factors` is one comma-separated column; the model leaves it out when not recorded.
			return { ...rest, ...dates, ...(typeof factors === 'string' ? { factors: factors.split(',') } : {}) } as unknown as AdapterSession;
		},
		async account({ provider, providerAccountId }) {
			const row = await one(
				client,
				'SELECT * FROM "account" WHERE provider = ? AND providerAccountId = ?',
				[provider, providerAccountId]
			);
			if (!row) return null;
			// NULL token columns are absent fields in the model.
			return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as unknown as AdapterAccount;
		},
		async verificationToken({ identifier, token }) {
			const row = await one(
				client,
				'SELECT * FROM "verificationToken" WHERE identifier = ? AND token = ?',
				[identifier, token]
			);
			return row && ({ ...row, expires: date(row['expires']) } as unknown as VerificationToken);
		},
		async authenticator(credentialID) {
			const row = await one(client, 'SELECT * FROM "authenticator" WHERE credentialID = ?', [credentialID]);
			if (!row) return null;
			// kitauth's optional columns (name, aaguid, createdAt, lastUsedAt) are absent fields when NULL.
			const stored: Record<string, unknown> = Object.fromEntries(
				Object.entries(row).filter(([key, v]) => v !== null || !['name', 'aaguid', 'createdAt', 'lastUsedAt'].includes(key))
			);
			for (const key of ['createdAt', 'lastUsedAt']) if (typeof stored[key] === 'number') stored[key] = new Date(stored[key] as number);
			return { ...stored, credentialBackedUp: row['credentialBackedUp'] === 1 } as unknown as AdapterAuthenticator;
		}
	};
}

/** Row counts of the adapter's tables, through a connection of its own. */
export async function countRows(url: string): Promise<Record<'user' | 'session' | 'account', number>> {
	const client = createClient({ url });
	try {
		const count = async (table: string) =>
			Number((await client.execute(`SELECT count(*) AS n FROM "${table}"`)).rows[0]?.['n']);
		return { user: await count('user'), session: await count('session'), account: await count('account') };
	} finally {
		client.close();
	}
}

/** A real client whose `execute` calls are recorded (the statements still run). */
export function recording(client: Client): { client: Client; executed: string[] } {
	const executed: string[] = [];
	const proxy = new Proxy(client, {
		get(target, key, receiver) {
			if (key === 'execute') {
				return (stmt: InStatement, args?: unknown) => {
					executed.push(typeof stmt === 'string' ? stmt : stmt.sql);
					return typeof stmt === 'string' ? target.execute(stmt, args as never) : target.execute(stmt);
				};
			}
			const value: unknown = Reflect.get(target, key, receiver);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
	return { client: proxy, executed };
}

