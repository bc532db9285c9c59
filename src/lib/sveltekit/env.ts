import { DEV } from 'esm-env';
import type { Env } from '../core/index.js';

/**
 * The environment the SvelteKit edge resolves configs against: the process environment where
 * there is one. adapter-node does not set NODE_ENV, so a production build counts as production
 * through the build's own DEV flag.
 */
export function kitEnv(): Env {
	const env: Env = (globalThis as { process?: { env?: Env } }).process?.env ?? {};
	return { ...env, NODE_ENV: env.NODE_ENV ?? (DEV ? 'development' : 'production') };
}
