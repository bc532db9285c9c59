import { command, form, getRequestEvent, query, type RemoteFormInvalidField } from '$app/server';
import { invalid } from '@sveltejs/kit';
import { accessToken, guard } from '#lib/remote/server.js';
import { sessionReads } from '../../auth.js';

/** Who is signed in (only for a signed-in user: 401 otherwise). */
export const whoami = query(guard(async (session) => session.user.email ?? null));

/** Only for admins (the fixture's user is not one: 403). */
export const adminReport = query(guard(async () => 'for admins', { role: 'admin' }));

/** An email address, as a Standard Schema (what valibot or zod would be in an app). */
const emailSchema = {
	'~standard': {
		version: 1,
		vendor: 'kit-app',
		validate: (value: unknown) => (typeof value === 'string' && value.includes('@') ? { value } : { issues: [{ message: 'Not an email address.' }] }),
		types: undefined as { input: string; output: string } | undefined
	}
} as const;

/** A check on the user and the argument (its type inferred from the schema): only Alice, only about herself. */
export const aboutMe = query(
	emailSchema,
	guard(async (_session, email) => `about ${email.toLowerCase()}`, { allow: (session, email) => session.user.email === email })
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
