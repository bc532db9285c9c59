import { query } from '$app/server';
import { guard } from 'kitauth/remote/server';

/** Only for a signed-in user. */
export const greeting = query(guard(async (session) => `Hello, ${session.user.name}`));
