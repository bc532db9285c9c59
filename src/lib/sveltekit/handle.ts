import type { RequestEvent } from '@sveltejs/kit';
import type { Handle } from './types.js';
import { respond } from '../core/auth.js';
import type { AuthOptions } from '../core/config.js';
import { toResponse } from '../core/response.js';
import type { CurrentSession } from './current.js';
import { createSessionGetter } from './locals.js';

/**
 * The `handle` hook: sets `locals.auth()` on every request and serves
 * `{paths.base}{basePath}/*` through the core; everything else goes on to the app.
 */
export function createHandle(
	getOptions: (event: RequestEvent) => Promise<AuthOptions>,
	current: (event: RequestEvent) => Promise<CurrentSession>
): Handle {
	return async ({ event, resolve }) => {
		event.locals.auth = createSessionGetter(event, current);
		const options = await getOptions(event);
		const { pathname } = event.url;
		if (pathname !== options.basePath && !pathname.startsWith(`${options.basePath}/`)) {
			return resolve(event);
		}
		return toResponse(await respond(event.request, options), event.request);
	};
}
