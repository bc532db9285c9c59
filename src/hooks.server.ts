import { building } from '$app/env';
import { sequence } from '@sveltejs/kit/hooks';
import type { ServerInit } from '@sveltejs/kit/hooks';
import { MissingSecretError } from '#lib';
import { migrate } from '#lib/adapters/libsql/index.js';
import { envSecrets } from '#lib/core/env.js';
import { kitEnv } from '#lib/sveltekit/env.js';
import { authConfig, database, handle as authHandle, useLocalIdp } from './demo/auth.js';
import { startLocalIdp } from './demo/local-idp.js';

export const handle = sequence(authHandle);

/**
 * At start-up: refuse to run in production without a secret (rather than on the first request),
 * and bring the database schema up to date.
 */
export const init: ServerInit = async () => {
	if (building) return;
	// The core's own inference (AUTH_SECRET, AUTH_SECRET_1..3, NEXTAUTH_SECRET) on the SvelteKit
	// edge's environment, so the demo never disagrees with kitauth about whether a secret is set.
	if (!authConfig.secret && envSecrets(kitEnv()).length === 0) {
		throw new MissingSecretError(
			'AUTH_SECRET is not set. Set it to at least 32 random characters (e.g. `openssl rand -base64 33`) before starting the demo in production.'
		);
	}
	await migrate(database);
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
