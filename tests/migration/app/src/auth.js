import { SvelteKitAuth } from '@auth/sveltekit';
import Credentials from '@auth/sveltekit/providers/credentials';
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';

/**
 * An app written for Auth.js. tests/migration/migration.test.ts builds it as it is, and with these
 * imports switched to kitauth (tests/migration/kitauth). Whoever starts it chooses:
 * - `MIGRATION_SESSION=jwt` (default): JWT sessions, credentials sign-in;
 * - `MIGRATION_SESSION=database`: database sessions through `@auth/drizzle-adapter` on the libSQL
 *   database `MIGRATION_DATABASE_URL`, sign-in through an OpenID Provider (Auth.js refuses
 *   credentials sign-in with database sessions) whose issuer, client id and secret Auth.js's naming
 *   convention reads from `AUTH_IDP_ISSUER`, `AUTH_IDP_ID` and `AUTH_IDP_SECRET`;
 * - `MIGRATION_HASH_TOKENS=false`: kitauth's rollout setting `session.hashTokens: false` (Auth.js
 *   ignores it).
 * The secret is `AUTH_SECRET`.
 */
const env = process.env;
const databaseSessions = env.MIGRATION_SESSION === 'database';

/** The one user `authorize()` accepts. */
export const ALICE = { id: 'user-alice', email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' };

const credentials = Credentials({
	credentials: {
		email: { label: 'Email', type: 'email' },
		password: { label: 'Password', type: 'password' }
	},
	authorize: ({ email, password }) =>
		email === ALICE.email && password === ALICE.password ? { id: ALICE.id, email: ALICE.email, name: ALICE.name } : null
});

function adapter() {
	const client = createClient({ url: env.MIGRATION_DATABASE_URL ?? ':memory:' });
	return DrizzleAdapter(drizzle({ client }));
}

const rollout = env.MIGRATION_HASH_TOKENS === 'false' ? { hashTokens: false } : {};

export const config = {
	// Auth.js's SvelteKit integration ignores AUTH_TRUST_HOST in production builds.
	trustHost: true,
	...(databaseSessions
		? {
				adapter: adapter(),
				session: { strategy: 'database', ...rollout },
				providers: [{ id: 'idp', name: 'Test IdP', type: 'oidc' }]
			}
		: { session: { strategy: 'jwt', ...rollout }, providers: [credentials] })
};

export const { handle, signIn, signOut } = SvelteKitAuth(config);
