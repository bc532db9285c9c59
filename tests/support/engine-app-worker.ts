/**
 * One app server of the engines' scale-out tests (tests/integration/engines-scaleout.test.ts): a
 * node:http server in front of the core's `Auth()` with database sessions in kitauth's own adapter
 * on a shared database: PostgreSQL through node-postgres or postgres.js, or libSQL on a file; the
 * app is `tests/integration/engine-app.ts`'s, its email links served at `GET /__link?email=…`.
 *
 *     node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts <this> <job JSON>
 *
 * The job: `{ "engine": "pg" | "postgres-js" | "libsql", "url": "…" }`. Listens
 * on 127.0.0.1, port 0, prints `{"port": n}` once it does; every error the core logs goes to
 * stderr as one JSON line. Exits when its stdin ends, or on the parent's signal.
 */
import pg from 'pg';
import postgres from 'postgres';
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import { PostgresAdapter } from '../../src/lib/adapters/postgres/index.js';
import { Auth } from '../../src/lib/core/index.js';
import type { Adapter } from '../../src/lib/core/types.js';
import { engineAppConfig } from '../integration/engine-app.js';
import { serveApp } from './app-server.js';

export interface EngineJob {
	engine: 'pg' | 'postgres-js' | 'libsql';
	url: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as EngineJob;

function adapter(): Adapter {
	if (job.engine === 'libsql') return LibSQLAdapter({ url: job.url });
	if (job.engine === 'postgres-js') return PostgresAdapter(postgres(job.url, { max: 8, onnotice: () => {} }));
	const pool = new pg.Pool({ connectionString: job.url, max: 8 });
	pool.on('error', () => {});
	return PostgresAdapter(pool);
}

const links = new Map<string, string>();

const config = engineAppConfig(adapter(), links, {
	error: (error) => process.stderr.write(`${JSON.stringify({ name: error.name, message: error.message })}\n`),
	warn: () => {},
	debug: () => {}
});

serveApp(
	(request) => Auth(request, config),
	(req, res) => {
		if (!req.url?.startsWith('/__link?')) return false;
		const email = new URL(req.url, 'http://x').searchParams.get('email') ?? '';
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ link: links.get(email) ?? null }));
		return true;
	}
);
