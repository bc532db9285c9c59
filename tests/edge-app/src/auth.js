import { D1Adapter } from '@auth/d1-adapter';
import { listProviders, SvelteKitAuth } from 'kitauth';
import Credentials from 'kitauth/providers/credentials';

/** The one user `authorize()` accepts. */
export const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

const credentials = Credentials({
	credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
	authorize: ({ email, password }) =>
		email === ALICE.email && password === ALICE.password ? { id: 'user-alice', email, name: 'Alice' } : null
});

/** What the sign-in page lists (the providers do not depend on the request). */
export const providers = () => listProviders({ providers: [credentials] });

/**
 * kitauth configured per request from the Worker's bindings (`event.platform.env`): the secret is
 * a Worker variable, and `SESSIONS=database` keeps sessions in D1 through Auth.js's D1 adapter.
 * There is no `process.env` here (no Node.js compatibility), nor a file system.
 */
export const { handle, signIn, signOut } = SvelteKitAuth(async (event) => {
	const env = event.platform?.env;
	if (!env?.AUTH_SECRET) throw new Error('no platform.env.AUTH_SECRET: not running on the Workers runtime?');
	const database = env.SESSIONS === 'database';
	return {
		secret: env.AUTH_SECRET,
		trustHost: true,
		providers: [credentials],
		...(database ? { adapter: D1Adapter(env.DB), session: { strategy: 'database' } } : {})
	};
});
