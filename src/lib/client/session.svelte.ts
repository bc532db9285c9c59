/**
 * The reactive session of `kitauth/client`: `session.current` is the session this page shows,
 * hydrated from the layout's data (`page.data.session`, which `load` returns from `locals.auth()`)
 * without a fetch of its own; `signIn`, `signOut` and `update` change it in place, and the tabs of
 * the site keep it in step over a BroadcastChannel.
 *
 * The state below is module-level, which on a server would be shared by every request: so it is
 * written only in the browser, and on the server `current` is the request's page data alone.
 */
import { BROWSER } from 'esm-env';
import { page } from '$app/state';
import type { Session } from '../index.js';
import { CHANNEL, readSessionMessage, sessionMessage, shownSession, signature } from './session-sync.js';

export interface ReactiveSession {
	/**
	 * The session (`null`: signed out). Reactive: read it in a component, a `$derived` or an
	 * `$effect`. It is the layout's `data.session` until this tab learns otherwise (a sign-in or
	 * sign-out through `kitauth/client`, an `update`, another tab's news); page data loaded since
	 * (`invalidateAll`, a navigation that reloads the layout) takes over again.
	 */
	readonly current: Session | null;
	/**
	 * Tells it what the session is now, when something else learned it (e.g. `updateSession` of
	 * `kitauth/remote`); the other tabs are told too. Browser only: on the server it does nothing.
	 */
	set(value: Session | null): void;
}

/** The sessionStorage key of the signature this tab last showed (across its full page loads). */
const SHOWN_KEY = 'kitauth:session';

let learned = $state.raw<{ over: unknown; value: Session | null } | null>(null);
/** The signature of what this tab last showed or told (so news is told once, and not echoed). */
let last: string | null = null;
let channel: BroadcastChannel | null = null;
let started = false;

function fromPage(): Session | null | undefined {
	return page.data.session as Session | null | undefined;
}

function shown(): Session | null {
	return shownSession(fromPage(), learned);
}

function remember(value: string): void {
	last = value;
	try {
		sessionStorage.setItem(SHOWN_KEY, value);
	} catch {
		// Storage refused (private modes): the tab only forgets across its own page loads.
	}
}

function tell(session: Session | null): void {
	const message = sessionMessage(session);
	remember(message.signature);
	channel?.postMessage(message);
}

/**
 * Starts, in the browser, once something reads or sets the session: listens to the other tabs,
 * and tells them when what this tab shows changes — also across its own full page loads (the
 * landing page of an OAuth sign-in, a form posted without JavaScript): the signature it last
 * showed is kept in sessionStorage.
 */
function start(): void {
	if (started || !BROWSER) return;
	started = true;
	let before: string | null = null;
	try {
		before = sessionStorage.getItem(SHOWN_KEY);
	} catch {
		// As above.
	}
	// What the tab showed before this page load, if it showed anything (the effect below tells the
	// other tabs when that differs from now); else what it shows now.
	remember(before ?? signature(shown()));
	if (typeof BroadcastChannel === 'function') {
		channel = new BroadcastChannel(CHANNEL);
		channel.addEventListener('message', (event: MessageEvent) => {
			const message = readSessionMessage<Session>(event.data);
			if (!message || message.signature === last) return;
			remember(message.signature);
			learned = { over: fromPage(), value: message.session };
		});
	}
	$effect.root(() => {
		$effect(() => {
			const now = shown();
			if (signature(now) !== last) tell($state.snapshot(now));
		});
	});
}

export const session: ReactiveSession = {
	get current() {
		start();
		return shown();
	},
	set(value) {
		if (!BROWSER) return;
		start();
		learned = { over: fromPage(), value };
		tell(value);
	}
};

/** Whether anything on this page uses the reactive session (worth a fetch to keep it right). */
export function sessionInUse(): boolean {
	return started;
}
