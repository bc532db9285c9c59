import { benchReadsSession, benchSession } from '../demo/bench.js';
import type { LayoutServerLoad } from './$types';

// The benchmark's bare page shows the signed-in layout from static data, without a session read.
// (Untracked: the query string must not make every navigation re-run the root layout.)
export const load: LayoutServerLoad = async ({ locals, route, url, untrack }) => ({
	session:
		route.id === '/bench/page' && !untrack(() => benchReadsSession(url)) ? benchSession : await locals.auth()
});
