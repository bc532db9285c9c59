import { error } from '@sveltejs/kit';
import { benchAccountData, benchReadsSession } from '../../../demo/bench.js';
import type { PageServerLoad } from './$types';

/**
 * The same route shape as /account (a server load feeding the same view). Bare, the benchmark's
 * baseline: no auth at all. With `?session`: the session read /account does, but none of its
 * database lookups, so the benchmark can tell the session read's share of /account's cost from
 * the lookups' (the linked accounts; with database sessions also the session list).
 */
export const load: PageServerLoad = async ({ locals, url }) => {
	if (!benchReadsSession(url)) return benchAccountData;
	const session = await locals.auth();
	if (!session?.user) error(401, 'This benchmark page needs a session.');
	return { ...benchAccountData, user: session.user, expires: session.expires };
};
