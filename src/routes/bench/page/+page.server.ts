import { benchAccountData } from '../../../demo/bench.js';
import type { PageServerLoad } from './$types';

/** The same route shape as /account (a server load feeding the same view), with no auth. */
export const load: PageServerLoad = () => benchAccountData;
