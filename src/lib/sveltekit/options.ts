import type { RequestEvent } from '@sveltejs/kit';
import { DEV } from 'esm-env';
import { type AuthConfig, type AuthServer, lazyAuthServer } from '../core/index.js';
import { appBase } from './app-base.js';
import { createBindingsReader } from './bindings.js';
import { kitEnv } from './env.js';
import type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from './types.js';

/**
 * The core server of one `SvelteKitAuth` for an event, with the app's `paths.base` prefixed to
 * the (user-chosen) `basePath`. One server per config object, all sharing one runtime, so a
 * config function that returns a fresh object each time re-derives nothing that matters.
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
	const lazy = typeof input === 'function' ? async (event: RequestEvent) => effective(await input(event)) : effective(input);
	const bindings = createBindingsReader();
	// Under `vite dev` (not in a production build, whatever NODE_ENV says), an email provider with
	// no server keeps its messages in the development outbox.
	const servers = lazyAuthServer(lazy, { env: () => kitEnv(bindings.variables()), devOutbox: DEV });
	return async (event) => {
		await bindings.read(event);
		return servers(event);
	};
}
