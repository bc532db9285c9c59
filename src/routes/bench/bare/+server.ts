import { json } from '@sveltejs/kit';

/** The benchmark's baseline: a route that does no auth at all. */
export const GET = () => json({ ok: true });
