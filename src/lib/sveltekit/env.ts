import { DEV } from 'esm-env';
import type { Env } from '../core/index.js';
import { devEnvFileVariables } from './dotenv.js';

/**
 * The environment the SvelteKit edge resolves configs against: the process environment where
 * there is one; then the `AUTH_*` variables among the platform's bindings (a Cloudflare Worker's
 * variables and secrets, see bindings.ts); and on a development server (`vite dev`) the `AUTH_*`
 * variables of the app's `.env` files, which `vite dev` does not put into `process.env`. An earlier
 * source wins (as in Vite, a value set in the process wins over the files). adapter-node does not
 * set NODE_ENV, so a production build counts as production through the build's own DEV flag.
 */
export function kitEnv(bindings: Env = {}): Env {
	const processEnv: Env = (globalThis as { process?: { env?: Env } }).process?.env ?? {};
	const env: Env = { ...processEnv };
	for (const [key, value] of Object.entries(bindings)) if (!env[key]) env[key] = value;
	if (DEV) {
		for (const [key, value] of Object.entries(devEnvFileVariables())) if (!env[key]) env[key] = value;
	}
	env.NODE_ENV ??= DEV ? 'development' : 'production';
	return env;
}
