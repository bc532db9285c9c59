import type { ServerLoad } from '@sveltejs/kit';
import { session } from '#lib/remote/index.js';
import { reads, token, whoami } from '../data.remote.js';

/**
 * Many remote calls in one request, at once: the session, a guarded query, and three that each
 * need the user's access token. The session is read once, the token refreshed at most once.
 */
export const load: ServerLoad = async () => {
	const [current, who, first, second, third] = await Promise.all([session(), whoami(), token(1), token(2), token(3)]);
	return { email: current?.user?.email ?? null, who, tokens: [first, second, third], reads: await reads() };
};
