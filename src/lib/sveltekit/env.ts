import { DEV } from 'esm-env';
import { type Env, processEnv } from '../core/env.js';

/**
 * The environment the SvelteKit edge resolves configs against. adapter-node does not set
 * NODE_ENV, so a production build counts as production through the build's own DEV flag.
 */
export function kitEnv(): Env {
	const env = processEnv();
	return { ...env, NODE_ENV: env.NODE_ENV ?? (DEV ? 'development' : 'production') };
}
