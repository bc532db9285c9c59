import { error, type RequestEvent } from '@sveltejs/kit';
import { type AuthConfig, type AuthServer, CONFIGURATION_MESSAGE, type Env, isConfigurationFailure, lazyAuthServer } from '../core/index.js';
import { appBase } from './app-base.js';
import { kitEnv } from './env.js';
import type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from './types.js';

/**
 * The core server of one `SvelteKitAuth` for an event, with the app's `paths.base` prefixed to
 * the (user-chosen) `basePath`. One server per config object, all sharing one runtime, so a
 * config function that returns a fresh object each time re-derives nothing that matters.
 *
 * A static config is resolved now, so its mistakes stop the start-up (`SvelteKitAuth()` throws);
 * a config function's, at the first request: logged once by the core, and then every request
 * fails alike, as a 500 that SvelteKit does not log again.
 */
export function createServerGetter(input: SvelteKitAuthConfigInput): (event: RequestEvent) => Promise<AuthServer> {
	const base = appBase();
	const withBase = new WeakMap<SvelteKitAuthConfig, AuthConfig>();
	const effective = (config: SvelteKitAuthConfig): AuthConfig => {
		let mapped = withBase.get(config);
		if (!mapped) {
			const basePath = config.basePath ?? '/auth';
			mapped = { ...config, basePath: base && !basePath.startsWith(`${base}/`) ? `${base}${basePath}` : basePath };
			withBase.set(config, mapped);
		}
		return mapped;
	};
	const lazy =
		typeof input === 'function'
			? async (event: RequestEvent) => effective(await input(event))
			: // The build loads the app to analyse it, usually without production secrets: not yet.
				analysingBuild()
				? () => effective(input)
				: effective(input);
	const getServer = lazyAuthServer(lazy, { env: kitEnv });
	return async (event) => {
		try {
			return await getServer(event);
		} catch (cause) {
			if (isConfigurationFailure(cause)) error(500, CONFIGURATION_MESSAGE);
			throw cause;
		}
	};
}

/**
 * Is this SvelteKit's build analysing (or prerendering) the app? Kit 2 and 3 load its modules
 * then in a worker whose environment has `SVELTEKIT_FORK` (their `building` flag is in
 * `$app/environment`, deprecated in kit 3, or `$app/env`, absent in kit 2).
 */
function analysingBuild(): boolean {
	const env: Env = (globalThis as { process?: { env?: Env } }).process?.env ?? {};
	return env.SVELTEKIT_FORK === 'true';
}
