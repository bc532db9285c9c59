/**
 * A throwaway PostgreSQL cluster for tests, from the Debian package (`apt-get install postgresql`):
 * `initdb` into a temporary directory, `pg_ctl start` on a free port of 127.0.0.1 with its socket
 * in that directory, trust authentication for the `postgres` role. PostgreSQL refuses to run as
 * root, so when the tests run as root the binaries run as the `postgres` OS user (`runuser`), which
 * owns the directory. `stop()` shuts the server down and deletes everything.
 *
 * Also: the pg-core tables of `@auth/drizzle-adapter`'s default Postgres schema, and their DDL as
 * drizzle-kit generates it.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const PG_ROOT = '/usr/lib/postgresql';

export interface PostgresCluster {
	version: string;
	host: '127.0.0.1';
	port: number;
	user: 'postgres';
	database: 'postgres';
	connectionString: string;
	/** Shuts the server down (fast: open connections are cut), keeping its data; resolves once it is down. */
	halt(): Promise<void>;
	/** Starts it again after `halt()`, on the same port; resolves once it accepts connections. */
	start(): Promise<void>;
	stop(): void;
}

/** The newest installed server version's bin directory, or a loud error naming the package. */
export function postgresBinDir(): { version: string; bin: string } {
	const versions = existsSync(PG_ROOT)
		? readdirSync(PG_ROOT)
				.filter((name) => /^\d+(\.\d+)?$/.test(name) && existsSync(join(PG_ROOT, name, 'bin', 'initdb')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	const version = versions[0];
	if (!version) {
		throw new Error(
			'PostgreSQL is not installed: no /usr/lib/postgresql/<version>/bin/initdb. ' +
				'Install the Debian package `postgresql` (it pulls in `postgresql-<version>` with initdb and pg_ctl): ' +
				'`apt-get install -y postgresql`.'
		);
	}
	return { version, bin: join(PG_ROOT, version, 'bin') };
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

function osUser(name: string): { uid: number; gid: number } {
	try {
		const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
		const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
		return { uid, gid };
	} catch {
		throw new Error(
			`The OS user "${name}" does not exist. It is created by the Debian package \`postgresql-common\` ` +
				'(a dependency of `postgresql`): `apt-get install -y postgresql`.'
		);
	}
}

/** Starts a fresh cluster. Throws (never skips) when PostgreSQL is missing or does not start. */
export async function startPostgres(): Promise<PostgresCluster> {
	const { version, bin } = postgresBinDir();
	const asRoot = process.getuid?.() === 0;
	const owner = asRoot ? osUser('postgres') : undefined;

	const dir = mkdtempSync(join(tmpdir(), 'kitauth-pg-'));
	const data = join(dir, 'data');
	const socket = join(dir, 'socket');
	mkdirSync(socket);
	if (owner) for (const path of [dir, socket]) chownSync(path, owner.uid, owner.gid);

	const run = (tool: string, args: string[]) => {
		const command = asRoot ? 'runuser' : join(bin, tool);
		const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
		const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000, cwd: dir });
		if (result.status !== 0) {
			const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
			throw new Error(
				`${tool} ${args.join(' ')} failed (status ${result.status}, ${result.error?.message ?? 'no spawn error'}):\n` +
					`${result.stdout}\n${result.stderr}\n${log}`
			);
		}
	};

	/** `run` without blocking this process's event loop (other work goes on meanwhile). */
	const runAsync = (tool: string, args: string[]) =>
		new Promise<void>((resolve, reject) => {
			const command = asRoot ? 'runuser' : join(bin, tool);
			const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
			const child = spawn(command, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
			let output = '';
			child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
			child.once('error', reject);
			child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} failed (${code}):\n${output}`))));
		});

	const port = await freePort();
	const serverOptions = `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
	try {
		run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync']);
		run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions, '-t', '60', '-w', 'start']);
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}

	let stopped = false;
	let halted = false;
	return {
		version,
		host: '127.0.0.1',
		port,
		user: 'postgres',
		database: 'postgres',
		connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
		async halt() {
			await runAsync('pg_ctl', ['-D', data, '-m', 'fast', '-t', '60', '-w', 'stop']);
			halted = true;
		},
		async start() {
			await runAsync('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions, '-t', '60', '-w', 'start']);
			halted = false;
		},
		stop() {
			if (stopped) return;
			stopped = true;
			try {
				if (!halted) run('pg_ctl', ['-D', data, '-m', 'fast', '-t', '60', '-w', 'stop']);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		}
	};
}

/**
 * `@auth/drizzle-adapter`'s default Postgres tables (`lib/pg.js`, `defineTables()`), written out
 * with drizzle `pg-core`. The adapter under test is built WITHOUT these (with its own defaults),
 * so a difference would break its queries.
 */
export const pgUsers = pgTable('user', {
	id: text('id')
		.primaryKey()
		.$defaultFn(() => crypto.randomUUID()),
	name: text('name'),
	email: text('email').unique(),
	emailVerified: timestamp('emailVerified', { mode: 'date' }),
	image: text('image')
});

export const pgAccounts = pgTable(
	'account',
	{
		userId: text('userId')
			.notNull()
			.references(() => pgUsers.id, { onDelete: 'cascade' }),
		type: text('type').notNull(),
		provider: text('provider').notNull(),
		providerAccountId: text('providerAccountId').notNull(),
		refresh_token: text('refresh_token'),
		access_token: text('access_token'),
		expires_at: integer('expires_at'),
		token_type: text('token_type'),
		scope: text('scope'),
		id_token: text('id_token'),
		session_state: text('session_state')
	},
	(account) => [primaryKey({ columns: [account.provider, account.providerAccountId] })]
);

export const pgSessions = pgTable('session', {
	sessionToken: text('sessionToken').primaryKey(),
	userId: text('userId')
		.notNull()
		.references(() => pgUsers.id, { onDelete: 'cascade' }),
	expires: timestamp('expires', { mode: 'date' }).notNull()
});

export const pgVerificationTokens = pgTable(
	'verificationToken',
	{
		identifier: text('identifier').notNull(),
		token: text('token').notNull(),
		expires: timestamp('expires', { mode: 'date' }).notNull()
	},
	(vt) => [primaryKey({ columns: [vt.identifier, vt.token] })]
);

export const pgAuthenticators = pgTable(
	'authenticator',
	{
		credentialID: text('credentialID').notNull().unique(),
		userId: text('userId')
			.notNull()
			.references(() => pgUsers.id, { onDelete: 'cascade' }),
		providerAccountId: text('providerAccountId').notNull(),
		credentialPublicKey: text('credentialPublicKey').notNull(),
		counter: integer('counter').notNull(),
		credentialDeviceType: text('credentialDeviceType').notNull(),
		credentialBackedUp: boolean('credentialBackedUp').notNull(),
		transports: text('transports')
	},
	(authenticator) => [primaryKey({ columns: [authenticator.userId, authenticator.credentialID] })]
);

export const pgAuthSchema = {
	usersTable: pgUsers,
	accountsTable: pgAccounts,
	sessionsTable: pgSessions,
	verificationTokensTable: pgVerificationTokens,
	authenticatorsTable: pgAuthenticators
};

/** The DDL drizzle-kit generates for these tables (from an empty database). */
export async function authSchemaDDL(): Promise<string[]> {
	const { generateDrizzleJson, generateMigration } = await import('drizzle-kit/api');
	return generateMigration(generateDrizzleJson({}), generateDrizzleJson(pgAuthSchema));
}
