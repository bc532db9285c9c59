import { type Client, createClient } from '@libsql/client';
import { ROGUE_CLIENT_ID, ROGUE_CLIENT_SECRET, type RogueIdp, startRogueIdp } from '../support/rogue-idp.js';
import { buildFixtureOnce, KIT3_APP, type RunningApp, startFixture } from './kit-app-server.js';

/** tests/kit-app running, with a test OpenID provider of its own and a connection to its database. */
export interface KitAppWithIdp {
	app: RunningApp;
	/** The fixture's OpenID provider `rogue` (a real test IdP on 127.0.0.1). */
	rogue: RogueIdp;
	db: Client;
	stop(): Promise<void>;
}

/** Builds tests/kit-app (unless a build of the same inputs is there) and starts it with `rogue`. */
export async function startKitAppWithIdp(): Promise<KitAppWithIdp> {
	const { ms, reused } = await buildFixtureOnce(KIT3_APP);
	console.info(reused ? 'tests/kit-app: reusing its build' : `tests/kit-app built in ${ms} ms`);
	const rogue = await startRogueIdp();
	const app = await startFixture(KIT3_APP, { KIT_APP_OIDC_ISSUER: rogue.issuer, KIT_APP_OIDC_ID: ROGUE_CLIENT_ID, KIT_APP_OIDC_SECRET: ROGUE_CLIENT_SECRET });
	// The fixture's port is known only now.
	rogue.allowRedirectUri(`${app.origin}/base/api/auth/callback/rogue`);
	const db = createClient({ url: app.databaseUrl });
	await db.execute('PRAGMA busy_timeout = 5000');
	return {
		app,
		rogue,
		db,
		stop: async () => {
			db.close();
			await app.stop();
			await rogue.close();
		}
	};
}
