/**
 * How the tabs of one site keep their reactive sessions in step (`session.svelte.ts`): a tab that
 * learns its session changed tells the others over a BroadcastChannel, which take it as theirs.
 * Pure functions here, so they are tested without a browser.
 */

/** The channel's name: one per site (BroadcastChannel is per origin). */
export const CHANNEL = 'kitauth:session';

/** What a tab sends: the session it now shows (`null`: signed out), and its signature. */
export interface SessionMessage<S> {
	kitauth: 'session';
	session: S | null;
	signature: string;
}

/**
 * What identifies a session's content: all of it but `expires`, which moves on every re-issue and
 * is no news to another tab. Keys sorted, so two tabs agree whatever order a server wrote.
 */
export function signature(session: unknown): string {
	if (!session || typeof session !== 'object') return 'null';
	const { expires: _expires, ...rest } = session as Record<string, unknown>;
	return JSON.stringify(sorted(rest));
}

function sorted(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sorted);
	if (!value || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.keys(value)
			.sort()
			.map((key) => [key, sorted((value as Record<string, unknown>)[key])])
	);
}

export function sessionMessage<S>(session: S | null): SessionMessage<S> {
	return { kitauth: 'session', session, signature: signature(session) };
}

/**
 * A message from another tab, if it is one of ours and well formed (the channel is this origin's
 * own, but other code on the site may use a channel of the same name).
 */
export function readSessionMessage<S>(data: unknown): SessionMessage<S> | null {
	if (!data || typeof data !== 'object') return null;
	const message = data as Partial<SessionMessage<S>>;
	if (message.kitauth !== 'session' || typeof message.signature !== 'string') return null;
	const session = message.session;
	if (session !== null && (typeof session !== 'object' || Array.isArray(session))) return null;
	if (signature(session) !== message.signature) return null;
	return { kitauth: 'session', session: session as S | null, signature: message.signature };
}

/**
 * Which session a tab shows: what it learned since its page data was loaded (a sign-in or
 * sign-out, an update, another tab's news), as long as the page data is still the one it was
 * learned over; page data loaded since (a navigation that reloaded it, `invalidateAll`) is newer
 * and wins.
 */
export function shownSession<S>(fromPage: S | null | undefined, learned: { over: unknown; value: S | null } | null): S | null {
	return learned && learned.over === fromPage ? learned.value : (fromPage ?? null);
}
