import { sequence } from '@sveltejs/kit/hooks';
import { handle as auth } from './auth.js';

/**
 * `PLATFORM_ENV=hidden` (a Worker variable): the request's `platform` without `env`, as an adapter
 * that hands the bindings only to the `cloudflare:workers` module would pass it. kitauth must find
 * its variables there.
 */
const platform = ({ event, resolve }) => {
	if (event.platform?.env?.PLATFORM_ENV === 'hidden') event.platform = { ...event.platform, env: undefined };
	return resolve(event);
};

export const handle = sequence(platform, auth);
