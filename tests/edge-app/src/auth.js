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
 * JWT sessions: nothing read from the platform here. kitauth finds AUTH_SECRET and
 * AUTH_TRUST_HOST among the Worker's bindings itself (the `cloudflare:workers` module on workerd),
 * as an app on SvelteKit 3 leaves them; there is no `process.env` here (no Node.js compatibility),
 * nor a file system.
 */
const jwt = { providers: [credentials] };

/**
 * kitauth per request: `SESSIONS=database` keeps sessions in D1 through Auth.js's D1 adapter, on
 * the binding the request's `platform.env` carries (SvelteKit 2's way, which adapter-cloudflare 8
 * still passes on SvelteKit 3); the secret still comes from the bindings.
 */
export const { handle, signIn, signOut } = SvelteKitAuth(async (event) => {
	const env = event.platform?.env;
	return env?.SESSIONS === 'database' ? { ...jwt, adapter: D1Adapter(env.DB), session: { strategy: 'database' } } : jwt;
});
