import { building } from '$app/env';
import { sequence } from '@sveltejs/kit/hooks';
import { SvelteKitAuth } from 'kitauth';
import { LibSQLAdapter, migrate } from 'kitauth/adapters/libsql';
import Credentials from 'kitauth/providers/credentials';

/**
 * The same credentials provider on database sessions, in the libSQL adapter's local file
 * (`BENCH_APP_DATABASE_URL`), migrated at start-up.
 */
const database = { url: process.env.BENCH_APP_DATABASE_URL ?? ':memory:' };

const { handle: kitauth } = SvelteKitAuth({
	adapter: LibSQLAdapter(database),
	session: { strategy: 'database' },
	providers: [
		Credentials({
			credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
			authorize: ({ email, password }) => (email === 'bench@example.com' && password === 'bench' ? { id: 'bench', email } : null)
		})
	]
});

export const handle = sequence(kitauth);

export const init = async () => {
	if (!building) await migrate(database);
};
