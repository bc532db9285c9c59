/**
 * One app server of the soak test (tests/soak/sessions.test.ts): a node:http server in front of
 * the core's `Auth()` with database sessions on a shared store, and a credentials provider that
 * knows users `soak-<n>` (password `pw-<n>`). The store is the libSQL adapter on a file, or
 * `@auth/drizzle-adapter` on PostgreSQL.
 *
 *     node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts <this> <job JSON>
 *
 * The job: `{ "store": "libsql" | "postgres", "url": "<file: URL or connection string>" }`, plus
 * `busyTimeout` and `alwaysOffThread` (libSQL). Listens on 127.0.0.1, port 0, and prints `{"port": n}` once it does.
 * Every error the core logs goes to stderr as one JSON line. Every 100 ms it notes how late its
 * own timer fired; `GET /__lag` answers the worst lateness so far (how long the event loop was
 * blocked) and resets it. Exits when its stdin ends, or on the parent's signal.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import { Auth } from '../../src/lib/core/index.js';
import type { Adapter, AuthConfig } from '../../src/lib/core/types.js';
import Credentials from '../../src/lib/providers/credentials.js';
import { SECRET } from '../integration/fixtures.js';
import { serveApp } from './app-server.js';

interface Job {
	store: 'libsql' | 'postgres';
	url: string;
	busyTimeout?: number;
	alwaysOffThread?: boolean;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;

function adapter(): Adapter {
	if (job.store === 'libsql') return LibSQLAdapter({ url: job.url }, { busyTimeout: job.busyTimeout ?? 1000, alwaysOffThread: job.alwaysOffThread });
	// Short connection timeout: a stopped server must fail requests quickly, not hang them.
	const pool = new pg.Pool({ connectionString: job.url, max: 4, connectionTimeoutMillis: 2000 });
	// Idle connections killed by a server shutdown must not crash the app.
	pool.on('error', () => {});
	return DrizzleAdapter(drizzle({ client: pool }));
}

const config: AuthConfig = {
	secret: SECRET,
	trustHost: true,
	adapter: adapter(),
	session: { strategy: 'database' },
	providers: [
		Credentials({
			credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
			authorize: ({ username, password }) => {
				const n = /^soak-(\d+)$/.exec(String(username))?.[1];
				return n !== undefined && password === `pw-${n}` ? { id: `user-${n}`, name: `Soak ${n}`, email: `soak-${n}@example.com` } : null;
			}
		})
	],
	logger: {
		error: (error) => process.stderr.write(`${JSON.stringify({ name: error.name, message: error.message.slice(0, 300) })}\n`),
		warn: () => {},
		debug: () => {}
	}
};

let worstLag = 0;
let expected = performance.now() + 100;
setInterval(() => {
	const now = performance.now();
	worstLag = Math.max(worstLag, now - expected);
	expected = now + 100;
}, 100);

serveApp(
	(request) => Auth(request, config),
	(req, res) => {
		if (req.url !== '/__lag') return false;
		res.end(JSON.stringify({ lag: Math.round(worstLag) }));
		worstLag = 0;
		return true;
	}
);
