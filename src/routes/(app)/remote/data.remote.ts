import { query } from '$app/server';
import { guard } from '#lib/remote/server.js';

/** Something only a signed-in user may read (401 otherwise): the demo's "protected data". */
export const secret = query(guard(async (session) => `A secret for ${session.user.email}.`));
