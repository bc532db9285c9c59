import { command, form, getRequestEvent, query, type RemoteFormInvalidField } from '$app/server';
import { invalid } from '@sveltejs/kit';
import { accessToken, guard } from '#lib/remote/server.js';
import { sessionReads } from '../../auth.js';

/** Who is signed in (only for a signed-in user: 401 otherwise). */
export const whoami = query(guard(async (session) => session.user.email ?? null));

/** Only for admins (the fixture's user is not one: 403). */
export const adminReport = query(guard(async () => 'for admins', { role: 'admin' }));

/** A check on the user and the argument: only Alice, and only about herself. */
export const aboutMe = query(
	'unchecked',
	guard(async (session, email: string) => `about ${email}`, { allow: (session, email) => session.user.email === email })
);

/** A command for signed-in users, given the validated argument after the session. */
export const shout = command('unchecked', guard(async (session, text: string) => `${session.user.email}: ${String(text).toUpperCase()}`));

// A type, not an interface: kit's form types want an object type that fits `RemoteFormInput`.
type Note = { text: string };

/** A guarded form: the session first, then kit's data and `issue` (typed by hand, as 'unchecked' wants). */
export const note = form(
	'unchecked',
	guard(async (session, data: Note, issue: RemoteFormInvalidField<Note>) => {
		if (!data.text) invalid(issue.text('Write something.'));
		return { saved: `${session.user.email}: ${data.text}` };
	})
);

/** The user's access token for the fixture's IdP (a number only tells the calls apart). */
export const token = query('unchecked', guard(async (_session, _call: number) => accessToken('rogue')));

/** How many times this request read a session from the store. */
export const reads = query(async () => sessionReads(getRequestEvent().locals));
