/**
 * One app server of the two-process scale-out test: a node:http server that turns each request
 * into a web `Request` and answers with the core's `Auth()`, configured with
 * `@auth/drizzle-adapter` on a shared PostgreSQL, database sessions, the integration suites'
 * secret and credentials provider. The site's origin comes from `AUTH_URL` (the parent sets the
 * same one for every instance, as behind a load balancer).
 *
 *     node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts <this> <connection string>
 *
 * Listens on 127.0.0.1, port 0, and prints `{"port": n}` as one line once it does. Every error the
 * core logs goes to stderr as one JSON line. Exits when its stdin ends (the parent closed it or is
 * gone), or on the parent's signal.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { Auth } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import { passwordProvider, SECRET } from '../integration/fixtures.js';
import { serveApp } from './app-server.js';

const [connectionString = ''] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString, max: 4 });
// An idle connection killed by a server shutdown must not crash the app.
pool.on('error', () => {});

const config: AuthConfig = {
	secret: SECRET,
	trustHost: true,
	adapter: DrizzleAdapter(drizzle({ client: pool })),
	session: { strategy: 'database' },
	providers: [passwordProvider()],
	logger: {
		error: (error) => process.stderr.write(`${JSON.stringify({ name: error.name, message: error.message })}\n`),
		warn: () => {},
		debug: () => {}
	}
};

serveApp((request) => Auth(request, config));
