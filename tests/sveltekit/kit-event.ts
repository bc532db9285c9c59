/**
 * What the in-process SvelteKit tests need: a request event as SvelteKit builds one (cookies in a
 * jar, the client's address), a handle's answer (or what it threw, as SvelteKit would catch it),
 * the process environment of a deployment (production, no `AUTH_*` unless a test sets one), a
 * provider and a recording logger.
 */
import type { RequestEvent } from '@sveltejs/kit';
import { afterEach, beforeEach, vi } from 'vitest';
import type { SvelteKitAuth } from '../../src/lib/index.js';
import Credentials from '../../src/lib/providers/credentials.js';

/** Variables a test may set; each test starts without them, in production. */
const VARIABLES = ['NODE_ENV', 'AUTH_SECRET', 'AUTH_URL', 'AUTH_TRUST_HOST', 'AUTH_CORP_SECRET', 'VERCEL', 'CF_PAGES', 'SVELTEKIT_FORK'];

/** Every test of the file starts in production without those variables; they are restored after. */
export function deploymentEnv(): void {
	let saved: Record<string, string | undefined> = {};
	beforeEach(() => {
		saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
		for (const name of VARIABLES) delete process.env[name];
		process.env.NODE_ENV = 'production';
	});
	afterEach(() => {
		vi.unstubAllGlobals();
		for (const [name, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	});
}

/** A credentials provider that lets nobody in (these tests never sign in). */
export const credentials = Credentials({
	credentials: { email: { label: 'Email' }, password: { label: 'Password', type: 'password' } },
	authorize: () => null
});

/** The config's own logger, recording. */
export function recording() {
	const errors: Error[] = [];
	return { errors, logger: { error: (error: Error) => void errors.push(error), warn: () => {}, debug: () => {} } };
}

/** A request event as SvelteKit makes one (cookies in a jar, the client's address). */
export function requestEvent(url: string, init: RequestInit = {}): RequestEvent {
	const jar = new Map<string, string>();
	const request = new Request(url, init);
	return {
		request,
		url: new URL(url),
		locals: {},
		params: {},
		route: { id: null },
		platform: undefined,
		isDataRequest: false,
		isSubRequest: false,
		getClientAddress: () => '203.0.113.9',
		setHeaders: () => {},
		fetch: globalThis.fetch,
		cookies: {
			get: (name: string) => jar.get(name),
			getAll: () => [...jar].map(([name, value]) => ({ name, value })),
			set: (name: string, value: string) => void jar.set(name, value),
			delete: (name: string) => void jar.delete(name),
			serialize: () => ''
		}
	} as unknown as RequestEvent;
}

/** What the handle answered, or threw (SvelteKit turns an `HttpError` into its error page). */
export async function answer(handle: ReturnType<typeof SvelteKitAuth>['handle'], e: RequestEvent, reached: string[] = []) {
	try {
		return await handle({ event: e, resolve: async () => (reached.push(e.url.pathname), new Response('the app')) });
	} catch (error) {
		return error;
	}
}
