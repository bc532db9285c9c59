import type { RequestEvent } from '@sveltejs/kit';
import type { Env } from '../core/index.js';
import { AUTH_VARIABLE } from './dotenv.js';

/**
 * Cloudflare's module of the Worker's bindings. Named through a variable so that neither Vite nor
 * SvelteKit's build resolves it: it exists only on workerd, and SvelteKit 3 loads the server
 * bundle in Node to analyse it, where a static import of it fails the build.
 */
const WORKERS_MODULE = 'cloudflare:workers';

/** What workerd says it is (`navigator.userAgent`); Node, Deno and browsers say otherwise. */
const WORKERS_USER_AGENT = 'Cloudflare-Workers';

/**
 * The `AUTH_*` (and `NEXTAUTH_*`) variables and secrets among a Worker's bindings, which are not
 * in `process.env` without Node.js compatibility. Where they come from:
 * - on workerd, the `cloudflare:workers` module's `env`: there for every adapter and SvelteKit
 *   version (adapter-cloudflare 8, for SvelteKit 3, hands SvelteKit its environment from it and no
 *   longer types `platform.env`);
 * - elsewhere, `event.platform.env`: what adapter-cloudflare passes each request on SvelteKit 2,
 *   and what it emulates under `vite dev` (Node, with Wrangler's local bindings) on both kits.
 * Bindings do not change while a Worker runs, so they are read once, at the first request.
 */
export function createBindingsReader(): { read(event: RequestEvent): Promise<void>; variables(): Env } {
	let pending: Promise<void> | undefined;
	let found: Env = {};
	return {
		read: (event) =>
			(pending ??= workerBindings().then((bindings) => {
				found = authVariables(bindings ?? platformEnv(event));
			})),
		variables: () => found
	};
}

/** Is this a Cloudflare Worker (workerd), whose bindings are read at the first request? */
export function onWorkers(): boolean {
	return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === WORKERS_USER_AGENT;
}

async function workerBindings(): Promise<unknown> {
	if (!onWorkers()) return undefined;
	try {
		const module = (await import(/* @vite-ignore */ WORKERS_MODULE)) as { env?: unknown };
		return module.env;
	} catch {
		return undefined; // an older workerd without the module: the platform's env below
	}
}

function platformEnv(event: RequestEvent): unknown {
	return (event.platform as { env?: unknown } | undefined)?.env;
}

/** The string-valued bindings kitauth reads (objects such as D1 or KV bindings are left out). */
export function authVariables(bindings: unknown): Env {
	const variables: Env = {};
	if (!bindings || typeof bindings !== 'object') return variables;
	for (const [key, value] of Object.entries(bindings)) {
		if (typeof value === 'string' && AUTH_VARIABLE.test(key)) variables[key] = value;
	}
	return variables;
}
