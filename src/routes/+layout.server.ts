import { benchSession } from '../demo/bench.js';
import type { LayoutServerLoad } from './$types';

// The benchmark's bare page shows the signed-in layout from static data, without a session read.
export const load: LayoutServerLoad = async ({ locals, route }) => ({
	session: route.id === '/bench/page' ? benchSession : await locals.auth()
});
