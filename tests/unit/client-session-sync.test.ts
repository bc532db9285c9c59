/**
 * How the reactive session of kitauth/client decides what to show and what to tell the other tabs
 * (src/lib/client/session-sync.ts). The reactive session itself runs in Chromium:
 * tests/e2e/client.e2e.ts.
 */
import { describe, expect, test } from 'vitest';
import { readSessionMessage, sessionMessage, shownSession, signature } from '../../src/lib/client/session-sync.js';

const alice = { user: { name: 'Alice', email: 'alice@example.com' }, expires: '2030-01-01T00:00:00.000Z' };

describe('signature', () => {
	test('the same for the same content, whatever the key order, and whatever `expires` says', () => {
		expect(signature({ expires: 'later', user: { email: 'alice@example.com', name: 'Alice' } })).toBe(signature(alice));
	});

	test('different for another user, another field, or no session', () => {
		expect(signature({ ...alice, user: { ...alice.user, name: 'Al' } })).not.toBe(signature(alice));
		expect(signature({ ...alice, nickname: 'Al' })).not.toBe(signature(alice));
		expect(signature(null)).toBe('null');
		expect(signature(undefined)).toBe('null');
	});
});

describe('messages between tabs', () => {
	test('a message round-trips', () => {
		expect(readSessionMessage(structuredClone(sessionMessage(alice)))).toEqual(sessionMessage(alice));
		expect(readSessionMessage(sessionMessage(null))).toEqual({ kitauth: 'session', session: null, signature: 'null' });
	});

	test('anything else on the channel is ignored: other shapes, a session that is not an object, a signature that does not match', () => {
		for (const data of [
			null,
			'session',
			{ kitauth: 'other', session: null, signature: 'null' },
			{ kitauth: 'session', session: 'alice', signature: '"alice"' },
			{ kitauth: 'session', session: [alice], signature: signature([alice]) },
			{ kitauth: 'session', session: alice },
			{ kitauth: 'session', session: { ...alice, user: { name: 'Mallory' } }, signature: signature(alice) }
		]) {
			expect(readSessionMessage(data)).toBeNull();
		}
	});
});

describe('shownSession: page data, or what the tab learned over it', () => {
	const fromPage = { ...alice };

	test('nothing learned: the page data (no data: signed out)', () => {
		expect(shownSession(fromPage, null)).toBe(fromPage);
		expect(shownSession(undefined, null)).toBeNull();
	});

	test('learned over this page data: what was learned, a sign-out included', () => {
		expect(shownSession(fromPage, { over: fromPage, value: null })).toBeNull();
		const updated = { ...alice, nickname: 'Al' };
		expect(shownSession(fromPage, { over: fromPage, value: updated })).toBe(updated);
		expect(shownSession(undefined, { over: undefined, value: updated })).toBe(updated);
	});

	test('page data loaded since (a new object) is newer, and wins', () => {
		const reloaded = { ...alice };
		expect(shownSession(reloaded, { over: fromPage, value: null })).toBe(reloaded);
	});
});
