import { building } from '$app/env';
import { sequence } from '@sveltejs/kit/hooks';
import { SvelteKitAuth } from 'kitauth';
import { LibSQLAdapter, migrate } from 'kitauth/adapters/libsql';
import { benchProvider, benchRateLimit } from '../lib/bench-auth.js';

/**
 * The same credentials provider on database sessions, in the libSQL adapter's local file
 * (`BENCH_APP_DATABASE_URL`), migrated at start-up; the limiter's counters (when on) live there too.
 */
const database = { url: process.env.BENCH_APP_DATABASE_URL ?? ':memory:' };

const { handle: kitauth } = SvelteKitAuth({
	adapter: LibSQLAdapter(database),
	session: { strategy: 'database' },
	providers: [benchProvider],
	rateLimit: benchRateLimit
});

export const handle = sequence(kitauth);

export const init = async () => {
	if (!building) await migrate(database);
};
