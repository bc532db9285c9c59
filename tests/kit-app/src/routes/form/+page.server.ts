import type { Actions, ServerLoad } from '@sveltejs/kit';
import { main } from '../../auth.js';

export const load: ServerLoad = async ({ locals }) => {
	const session = await locals.auth();
	return { email: session?.user?.email ?? null };
};

/** kitauth's sign-in and sign-out, as form actions. */
export const actions: Actions = { signIn: main.signIn, signOut: main.signOut };
