import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { CurrentSession, PasskeyManager } from '../core/index.js';

export type { PasskeyInfo, PasskeyManager, PasskeyRemoval } from '../core/index.js';

/**
 * The signed-in user's passkeys, in the request being served (a `load` or form action): list,
 * rename, remove (which needs a recent sign-in and is refused for the last way to sign in).
 */
export function createPasskeys(current: (event: RequestEvent) => Promise<CurrentSession>): PasskeyManager {
	const scope = async () => (await current(getRequestEvent())).passkeys;
	return {
		list: async () => (await scope()).list(),
		rename: async (id, name) => (await scope()).rename(id, name),
		remove: async (id, options) => (await scope()).remove(id, options)
	};
}
