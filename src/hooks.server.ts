import { building } from '$app/env';
import { sequence } from '@sveltejs/kit/hooks';
import type { ServerInit } from '@sveltejs/kit/hooks';
import { migrate } from '#lib/adapters/libsql/index.js';
import { adapter, database, handle as authHandle, useLocalIdp } from './demo/auth.js';
import { startLocalIdp } from './demo/local-idp.js';
import { seedDemoUser } from './demo/users.js';

export const handle = sequence(authHandle);

/**
 * At start-up, bring the database schema up to date and create the demo user. (A production start without a secret never
 * gets here: `SvelteKitAuth(authConfig)` throws `MissingSecretError` when this module loads.)
 */
export const init: ServerInit = async () => {
	if (building) return;
	await migrate(database);
	await seedDemoUser(adapter);
	if (useLocalIdp) {
		// In development the server module can be re-run: stop the previous IdP first.
		const holder = globalThis as { __kitauthDemoIdp?: () => Promise<void> };
		await holder.__kitauthDemoIdp?.();
		const stop = await startLocalIdp();
		holder.__kitauthDemoIdp = stop;
		// adapter-node announces a graceful shutdown; the IdP's server would keep the process alive.
		process.once('sveltekit:shutdown', () => void stop());
	}
};
