import { json } from '@sveltejs/kit';

/** A `+server` route that reads no session. */
export const GET = () => json({ ok: true });
