/**
 * A child process of the database-session fault tests, run as an unprivileged user when the tests
 * run as root (root writes through a 0444 mode): the real `Auth()` with a LibSQLAdapter on a
 * read-only database file. Reads work, writes fail. Prints what each request answered as JSON.
 *
 *     node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts <this> <url> <token> <secret>
 */
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import { Auth } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import Credentials from '../../src/lib/providers/credentials.js';
import { setCookies, TestClient } from './client.js';

const [url = '', token = '', secret = ''] = process.argv.slice(2);
const SESSION_COOKIE = 'authjs.session-token';

const logged: { name: string; type?: string; message: string; cause?: string }[] = [];

function config(updateAge: number): AuthConfig {
	return {
		secret,
		trustHost: true,
		adapter: LibSQLAdapter({ url }, { busyTimeout: 500 }),
		session: { updateAge },
		providers: [
			Credentials({
				credentials: { username: {}, password: {} },
				authorize: ({ username }) => (username === 'alice' ? { id: 'user-1', name: 'Alice', email: 'alice@example.com' } : null)
			})
		],
		logger: {
			error: (error) => {
				const cause = (error as { cause?: { err?: Error } }).cause?.err;
				logged.push({ name: error.name, type: (error as { type?: string }).type, message: error.message, cause: cause?.message });
			},
			warn: () => {},
			debug: () => {}
		}
	};
}

async function answer(res: Response) {
	return {
		status: res.status,
		location: res.headers.get('location'),
		body: await res.text(),
		sessionCookies: setCookies(res)
			.filter((c) => c.name === SESSION_COOKIE)
			.map((c) => c.value)
	};
}

/** The session is not due for an extension: a pure read. */
const lazy = config(24 * 3600);
/** Every read extends the session: a write on every read. */
const eager = config(0);
const client = (cfg: AuthConfig, withToken: boolean) => {
	const c = new TestClient((request) => Auth(request, cfg));
	if (withToken) c.setCookie(SESSION_COOKIE, token);
	return c;
};

const result = {
	read: await answer(await client(lazy, true).get('session')),
	readWithSlide: await answer(await client(eager, true).get('session')),
	signIn: await answer(await client(lazy, false).signInWithCredentials('credentials', { username: 'alice', password: 'x' })),
	logged
};
process.stdout.write(JSON.stringify(result));
process.exit(0);
