import { benchReadsSession, benchSession } from '../../demo/bench.js';
import type { LayoutServerLoad } from './$types';

// The benchmark's bare page shows the signed-in layout from static data, without a session read.
// (Untracked: the query string must not make every navigation re-run the layout.)
export const load: LayoutServerLoad = async ({ locals, url, untrack }) => ({
	session: untrack(() => benchReadsSession(url)) ? await locals.auth() : benchSession
});
