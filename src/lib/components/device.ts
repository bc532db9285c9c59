import Bowser from 'bowser';
import { type Translator, translator } from '../i18n/index.js';

/** A device as a person would name it, from a session's user agent. */
export interface DeviceName {
	/** e.g. "Firefox 140 on Windows", "Safari 18 on iOS 18"; "Unknown device" when nothing is recognised. */
	label: string;
	browser?: string;
	os?: string;
	/** `desktop`, `mobile`, `tablet` or `tv`, when known. */
	type?: string;
	/** The raw user agent (at most 120 characters), only when it named nothing recognisable. */
	raw?: string;
}

/** Systems whose version in the user agent is frozen (macOS 10.15.7, Windows NT 10.0) name none. */
const VERSIONED_OS = new Set(['iOS', 'iPadOS', 'Android']);

const major = (version: string | undefined) => version?.split('.')[0] || undefined;

const ENGLISH = translator('en');

/**
 * Names the device of a user agent with bowser (a maintained parser): the browser and its major
 * version, the system (with its version where the user agent still tells it), in `i18n`'s
 * language (English by default). Plain text: render it as text, as with any value that came from
 * a request.
 */
export function describeDevice(userAgent: string | null | undefined, i18n: Translator = ENGLISH): DeviceName {
	const ua = (userAgent ?? '').slice(0, 512);
	// (bowser throws on an empty string; a session may have no user agent.)
	if (!ua.trim()) return { label: i18n.t('device.unknown') };
	const { browser, os, platform } = Bowser.getParser(ua).getResult();
	const browserName = browser.name ? [browser.name, major(browser.version)].filter(Boolean).join(' ') : undefined;
	const osName = os.name
		? [os.name, VERSIONED_OS.has(os.name) ? major(os.version) : undefined].filter(Boolean).join(' ')
		: undefined;
	const type = platform.type || undefined;
	if (!browserName && !osName) {
		const raw = ua.trim().slice(0, 120);
		return { label: i18n.t('device.unknown'), ...(raw ? { raw } : {}) };
	}
	const label = browserName && osName ? i18n.t('device.on', { browser: browserName, os: osName }) : (browserName ?? osName!);
	return { label, browser: browserName, os: osName, type };
}
