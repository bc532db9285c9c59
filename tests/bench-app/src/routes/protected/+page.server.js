import { error } from '@sveltejs/kit';

/**
 * A protected page: its load reads the session (`locals.auth()`) and refuses without one. In the
 * `none` build (no hook, so no `locals.auth`) it serves the same data to everyone: the same page
 * without auth, the hot-path bench's baseline (tests/bench/hotpath.ts).
 */
export const load = async ({ locals }) => {
	if (!locals.auth) return { user: { name: 'Bench User', email: 'bench@example.com' } };
	const session = await locals.auth();
	if (!session?.user) error(401, 'This page needs a session.');
	return { user: session.user };
};
