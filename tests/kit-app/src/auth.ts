import { SvelteKitAuth, type Adapter, type SvelteKitAuthConfig } from '#lib';
import { LibSQLAdapter } from '#lib/adapters/libsql/index.js';
import Credentials from '#lib/providers/credentials.js';
import Nodemailer from '#lib/providers/nodemailer.js';
import OIDC from '#lib/providers/oidc.js';

/** The fixture's `paths.base` (vite.config.ts). */
export const BASE = '/base';

/** The one user `authorize()` accepts. */
export const ALICE = { id: 'user-alice', email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' };

/** A temporary file the test creates (`:memory:` only while building). */
export const database = { url: process.env.KIT_APP_DATABASE_URL ?? ':memory:' };
/** `KIT_APP_BUSY_TIMEOUT` (ms): how long a call waits for a locked database (the tests that lock it). */
const store = LibSQLAdapter(database, { busyTimeout: Number(process.env.KIT_APP_BUSY_TIMEOUT ?? 5000) });

/**
 * `getSessionAndUser` calls per request (keyed by `locals`, one object per request): the lazy
 * config hands each request a view of the adapter that counts them.
 */
const reads = new WeakMap<object, number>();

export function sessionReads(locals: App.Locals): number {
	return reads.get(locals) ?? 0;
}

function countingAdapter(locals: App.Locals): Adapter {
	return {
		...store,
		getSessionAndUser: (token) => {
			reads.set(locals, sessionReads(locals) + 1);
			return store.getSessionAndUser(token);
		}
	};
}

const credentials = Credentials({
	credentials: {
		email: { label: 'Email', type: 'email' },
		password: { label: 'Password', type: 'password' }
	},
	authorize: ({ email, password }) =>
		email === ALICE.email && password === ALICE.password ? { id: ALICE.id, email: ALICE.email, name: ALICE.name } : null
});

/**
 * An OpenID provider `rogue` when the test runs an IdP for the fixture (its issuer and client in
 * `KIT_APP_OIDC_*`): OAuth sign-in and `getAccessToken` through the real SvelteKit integration.
 */
const env = process.env;
const oidc = env.KIT_APP_OIDC_ISSUER
	? [OIDC({ id: 'rogue', name: 'Rogue', issuer: env.KIT_APP_OIDC_ISSUER, clientId: env.KIT_APP_OIDC_ID, clientSecret: env.KIT_APP_OIDC_SECRET })]
	: [];

/**
 * `KIT_APP_RATE_LIMIT=closed`: the limiter on, refusing when its store (the database) fails
 * (`failOpen: false`). Otherwise kitauth's default (`AUTH_RATE_LIMIT` decides).
 */
const rateLimit = env.KIT_APP_RATE_LIMIT === 'closed' ? { rateLimit: { failOpen: false } } : {};

export const shared = {
	providers: [credentials, ...oidc],
	session: { strategy: 'database' },
	// A session update (`update()`, kitauth/remote's `updateSession`) may set a nickname, for that answer.
	callbacks: {
		session: ({ session, trigger, newSession }) => {
			const nickname = (newSession as { nickname?: unknown } | undefined)?.nickname;
			return trigger === 'update' && typeof nickname === 'string' ? { ...session, nickname } : session;
		}
	},
	...rateLimit
} satisfies SvelteKitAuthConfig;

/** The app's instance: a lazy config, user basePath `/api/auth` → served at `/base/api/auth/*`. */
export const main = SvelteKitAuth(async (event) => ({
	...shared,
	basePath: '/api/auth',
	adapter: countingAdapter(event.locals)
}));

/**
 * Misconfigured: an OIDC provider with neither issuer nor endpoints. Mounted on `/base/broken/*`.
 * A config function: a static one would stop the app at start-up (`SvelteKitAuth()` throws), and
 * this one fails its first request instead, logged once.
 */
export const broken = SvelteKitAuth(() => ({
	basePath: '/broken/auth',
	providers: [{ id: 'nowhere', name: 'Nowhere', type: 'oidc', clientId: 'fixture', clientSecret: 'fixture' }]
}));

/**
 * Misconfigured the other way: the same store and sessions, but the host is not trusted, so every
 * session read must fail. Mounted on `/base/untrusted/*`.
 */
export const untrusted = SvelteKitAuth({ ...shared, basePath: '/untrusted/auth', adapter: store, trustHost: false });

/**
 * Email sign-in with no SMTP server configured (no AUTH_NODEMAILER_SERVER): under `vite dev` its
 * messages go to kitauth's development outbox; a production build refuses the configuration. A
 * config function, as `broken`: a static one would stop this whole app at start-up in production.
 * Mounted on `/base/mailless/*`.
 */
const maillessConfig = { basePath: '/mailless/auth', adapter: store, providers: [Nodemailer] } satisfies SvelteKitAuthConfig;
export const mailless = SvelteKitAuth(() => maillessConfig);
