import { json } from '@sveltejs/kit';

/** A `+server` route that reads no session: what the `none` build answers, and the start-up probe. */
export const GET = () => json({ ok: true });
