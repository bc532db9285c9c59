import { error } from '@sveltejs/kit';
import { passwords } from '../../../demo/auth.js';
import type { Actions, PageServerLoad } from './$types';

/** Longer than any link kitauth makes: the form action refuses what the page would carry on. */
const MAX = 512;

// The page a reset link opens (the demo's `sendPasswordReset` points it here): the link's user and
// token go into the form; nothing is used up until it posts.
export const load: PageServerLoad = ({ url, setHeaders }) => {
	const user = url.searchParams.get('user');
	const token = url.searchParams.get('token');
	if (!user || !token || user.length > MAX || token.length > MAX) error(400, 'This link is incomplete: open the one in the message again.');
	// Its URL holds the token: referrers carry the origin only, and no cache keeps it.
	setHeaders({ 'referrer-policy': 'strict-origin', 'cache-control': 'no-store' });
	return { user, token };
};

export const actions: Actions = { resetPassword: passwords.actions().resetPassword };
