/**
 * One app server of the engines' scale-out tests (tests/integration/engines-scaleout.test.ts): a
 * node:http server in front of the core's `Auth()` with database sessions in kitauth's own adapter
 * on a shared database: PostgreSQL through node-postgres or postgres.js, or libSQL on a file. Its
 * limiter keeps its counters in that database (the adapter's, by default). Providers: the
 * integration suites' credentials (alice / wonderland) and an email provider whose links are kept
 * in memory and served at `GET /__link?email=…` (the test plays the mailbox).
 *
 *     node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts <this> <job JSON>
 *
 * The job: `{ "engine": "pg" | "postgres-js" | "libsql", "url": "…", "accountLimit": n }`. Listens
 * on 127.0.0.1, port 0, prints `{"port": n}` once it does; every error the core logs goes to
 * stderr as one JSON line. Exits when its stdin ends, or on the parent's signal.
 */
import pg from 'pg';
import postgres from 'postgres';
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import { PostgresAdapter } from '../../src/lib/adapters/postgres/index.js';
import { Auth } from '../../src/lib/core/index.js';
import type { Adapter, AuthConfig } from '../../src/lib/core/types.js';
import Email from '../../src/lib/providers/email.js';
import { passwordProvider, SECRET } from '../integration/fixtures.js';
import { serveApp } from './app-server.js';

export interface EngineJob {
	engine: 'pg' | 'postgres-js' | 'libsql';
	url: string;
	accountLimit: number;
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

const config: AuthConfig = {
	secret: SECRET,
	trustHost: true,
	adapter: adapter(),
	session: { strategy: 'database' },
	providers: [
		passwordProvider(),
		Email({ id: 'email', from: 'kitauth <no-reply@example.test>', sendVerificationRequest: ({ identifier, url }) => void links.set(identifier, url) })
	],
	rateLimit: { rules: { credentials: { address: false, account: { freeAttempts: 1000, delay: 0, limit: job.accountLimit } } } },
	logger: {
		error: (error) => process.stderr.write(`${JSON.stringify({ name: error.name, message: error.message })}\n`),
		warn: () => {},
		debug: () => {}
	}
};

serveApp(
	(request) => Auth(request, config),
	(req, res) => {
		if (!req.url?.startsWith('/__link?')) return false;
		const email = new URL(req.url, 'http://x').searchParams.get('email') ?? '';
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ link: links.get(email) ?? null }));
		return true;
	}
);
