/**
 * Shared set-up for the database-session suites: a real `LibSQLAdapter` on `:memory:` or on a
 * temporary `file:` database (migrated with `migrate()`), raw reads of its tables that bypass the
 * adapter, and counts of the adapter calls the core makes. The counting wraps the adapter object
 * we hand to the config (not code under test): the core still calls the real adapter.
 */
import { createClient, type Client } from '@libsql/client';
import { createHash } from 'node:crypto';
import { LibSQLAdapter, migrate, type LibSQLAdapterInstance } from '../../src/lib/adapters/libsql/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import { tempDatabase } from '../adapter/support.js';
import { sessionWithUserId, setup, type Setup } from './fixtures.js';

export type StoreKind = 'memory' | 'file';
export const STORE_KINDS: StoreKind[] = ['memory', 'file'];

/** A `session` row as stored (dates are integer milliseconds). */
export interface SessionRow {
	sessionToken: string;
	userId: string;
	expires: number;
	createdAt: number | null;
	userAgent: string | null;
}

export interface UserRow {
	id: string;
	name: string | null;
	email: string | null;
	emailVerified: number | null;
	image: string | null;
}

export interface Store {
	kind: StoreKind;
	url: string;
	/** The client the adapter uses; also used for raw reads. */
	db: Client;
	/** The adapter handed to the configuration (counting wrappers around the real one). */
	adapter: LibSQLAdapterInstance;
	/** How many times the core called each counted method. */
	calls: { getSessionAndUser: number; updateSession: number; deleteSession: number; createSession: number };
	sessions(): Promise<SessionRow[]>;
	users(): Promise<UserRow[]>;
	close(): void;
}

export function sha256(value: string): string {
	return createHash('sha256').update(value).digest('hex');
}

/** Opens and migrates a fresh database. Call `close()` after the test. */
export async function openStore(kind: StoreKind): Promise<Store> {
	const temp = kind === 'file' ? tempDatabase('kitauth-dbsession-') : undefined;
	const url = temp?.url ?? ':memory:';
	const db = createClient({ url });
	await migrate(db);
	const real = LibSQLAdapter(db);
	const calls = { getSessionAndUser: 0, updateSession: 0, deleteSession: 0, createSession: 0 };
	const adapter: LibSQLAdapterInstance = {
		...real,
		getSessionAndUser: (token) => {
			calls.getSessionAndUser++;
			return real.getSessionAndUser(token);
		},
		updateSession: (session) => {
			calls.updateSession++;
			return real.updateSession(session);
		},
		deleteSession: (token) => {
			calls.deleteSession++;
			return real.deleteSession(token);
		},
		createSession: (session) => {
			calls.createSession++;
			return real.createSession(session);
		}
	};
	return {
		kind,
		url,
		db,
		adapter,
		calls,
		async sessions() {
			const result = await db.execute('SELECT * FROM "session" ORDER BY "createdAt", "sessionToken"');
			return result.rows.map((row) => ({
				sessionToken: String(row['sessionToken']),
				userId: String(row['userId']),
				expires: Number(row['expires']),
				createdAt: row['createdAt'] === null ? null : Number(row['createdAt']),
				userAgent: row['userAgent'] === null ? null : String(row['userAgent'])
			}));
		},
		async users() {
			const result = await db.execute('SELECT * FROM "user" ORDER BY "id"');
			return result.rows.map((row) => ({
				id: String(row['id']),
				name: row['name'] === null ? null : String(row['name']),
				email: row['email'] === null ? null : String(row['email']),
				emailVerified: row['emailVerified'] === null ? null : Number(row['emailVerified']),
				image: row['image'] === null ? null : String(row['image'])
			}));
		},
		close() {
			db.close();
			temp?.remove();
		}
	};
}

/** `setup()` of the integration suites with this store's adapter (database strategy by default). */
export function dbSetup(store: Store, overrides: Partial<AuthConfig> = {}): Setup {
	return setup({ adapter: store.adapter, ...overrides, callbacks: { session: sessionWithUserId, ...overrides.callbacks } });
}
