import { up } from '@auth/d1-adapter';
import { json } from '@sveltejs/kit';

/**
 * The fixture's window on its D1 database, for the test: POST creates Auth.js's tables (the D1
 * adapter's own migration), GET lists what the tables hold. Straight on the binding, not through
 * kitauth.
 */
export const POST = async ({ platform }) => {
	await up(platform.env.DB);
	return json({ migrated: true });
};

export const GET = async ({ platform }) => {
	const db = platform.env.DB;
	const { results: sessions } = await db.prepare('SELECT "sessionToken", "userId", "expires" FROM sessions').all();
	const { results: users } = await db.prepare('SELECT "id", "email" FROM users').all();
	return json({ sessions, users });
};
