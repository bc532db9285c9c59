import { error, type ServerLoad } from '@sveltejs/kit';
import { sessionReads } from '../../../auth.js';

/**
 * A protected page, under each instance's zone (`/base/app`, `/base/broken`, `/base/untrusted`).
 * It asks for the session three times (two at once, one after), as several `load`s would.
 */
export const load: ServerLoad = async ({ locals }) => {
	const [first, second] = await Promise.all([locals.auth(), locals.auth()]);
	const session = await locals.auth();
	if (!session?.user?.email) error(401, 'Sign in first');
	// @auth/sveltekit's older name, as a switching app still calls it.
	const legacy = await locals.getSession();
	return {
		secret: `protected-data-for-${session.user.email}`,
		expires: session.expires,
		sameObject: first === second && second === session && legacy === session,
		reads: sessionReads(locals)
	};
};
