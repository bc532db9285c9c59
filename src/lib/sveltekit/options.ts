import type { RequestEvent } from '@sveltejs/kit';
import { type AuthOptions, resolveOptions } from '../core/config.js';
import type { Keyring } from '../core/session/keys.js';
import type { AuthConfig } from '../core/types/config.js';
import { appBase } from './app-base.js';
import { kitEnv } from './env.js';
import type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from './types.js';

/**
 * Resolves the options of one `SvelteKitAuth` for an event. The app's `paths.base` is prefixed to
 * the (user-chosen) `basePath`. Derived options are cached per config object, and keys per secret
 * across lazy configs, so a config function that returns a fresh object each time does not
 * re-derive keys on every request.
 */
export function createOptionsGetter(input: SvelteKitAuthConfigInput): (event: RequestEvent) => Promise<AuthOptions> {
	const base = appBase();
	const keyrings = new Map<string, Keyring>();
	const withBase = new WeakMap<SvelteKitAuthConfig, AuthConfig>();
	const resolveFor = (config: SvelteKitAuthConfig): AuthOptions => {
		let effective = withBase.get(config);
		if (!effective) {
			const basePath = config.basePath ?? '/auth';
			effective = { ...config, basePath: base && !basePath.startsWith(`${base}/`) ? `${base}${basePath}` : basePath };
			withBase.set(config, effective);
		}
		return resolveOptions(effective, { env: kitEnv, keyrings });
	};
	if (typeof input !== 'function') return async () => resolveFor(input);
	return async (event) => resolveFor(await input(event));
}
