import { error, type RequestEvent } from '@sveltejs/kit';
import { DEV } from 'esm-env';
import { type AuthConfig, type AuthServer, CONFIGURATION_MESSAGE, type Env, isConfigurationFailure, lazyAuthServer } from '../core/index.js';
import { appBase } from '../shared/app-base.js';
import { createBindingsReader, onWorkers } from './bindings.js';
import { kitEnv } from './env.js';
import type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from './types.js';

/**
 * The core server of one `SvelteKitAuth` for an event, with the app's `paths.base` prefixed to
 * the (user-chosen) `basePath`. One server per config object, all sharing one runtime, so a
 * config function that returns a fresh object each time re-derives nothing that matters.
 *
 * A static config is resolved now (see {@link checkedAtFirstRequest} for when it is not), so its
 * mistakes stop the start-up: `SvelteKitAuth()` throws. A config function's, at the first
 * request: logged once by the core, and then every request fails alike, as a 500 that SvelteKit
 * does not log again.
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
			: checkedAtFirstRequest()
				? () => effective(input)
				: effective(input);
	const bindings = createBindingsReader();
	// Under `vite dev` (not in a production build, whatever NODE_ENV says), an email provider with
	// no server keeps its messages in the development outbox.
	const servers = lazyAuthServer(lazy, { env: () => kitEnv(bindings.variables()), devOutbox: DEV });
	return async (event) => {
		await bindings.read(event);
		try {
			return await servers(event);
		} catch (cause) {
			if (isConfigurationFailure(cause)) error(500, CONFIGURATION_MESSAGE);
			throw cause;
		}
	};
}

/**
 * Whether a static config waits for the first request instead of being checked when
 * `SvelteKitAuth()` runs: where variables it reads come only with that request (a Worker's
 * bindings; the `platform.env` that `vite dev` emulates for adapter-cloudflare), and while
 * SvelteKit's build loads the app to analyse and prerender it, usually without production secrets
 * (kit 2 and 3 do that in a worker whose environment has `SVELTEKIT_FORK`; their `building` flag
 * is in `$app/environment`, deprecated in kit 3, or `$app/env`, absent in kit 2).
 */
function checkedAtFirstRequest(): boolean {
	const env: Env = (globalThis as { process?: { env?: Env } }).process?.env ?? {};
	return DEV || onWorkers() || env.SVELTEKIT_FORK === 'true';
}
