/**
 * Messages sent after the answer are handed to the platform's `waitUntil` (Cloudflare Workers:
 * `event.platform.ctx`, as adapter-cloudflare passes it; older adapters' `platform.context`), so a
 * Worker keeps them alive past the response: through the REST route the handle serves, and
 * through a form action. Plumbing tested in process (no workerd): the promise handed over is the
 * one that sends.
 */
import { isRedirect } from '@sveltejs/kit';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { PasswordResetRequest } from '../../src/lib/core/types/provider.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import Password from '../../src/lib/providers/password.js';
import { openStore, type Store } from '../integration/database-fixtures.js';
import { answer, deploymentEnv, recording, requestEvent } from './kit-event.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });

deploymentEnv();

let store: Store;
let sent: PasswordResetRequest[];
beforeEach(async () => {
	store = await openStore('memory');
	sent = [];
	await store.adapter.createPasswordUser!({ id: crypto.randomUUID(), email: 'ada@example.com', emailVerified: null }, await FAST.hash('correct horse battery staple'));
});
afterEach(() => store.close());

/** A sender that finishes only when the test lets it: whoever awaits the promise waits for it. */
function slowSender() {
	let release = () => {};
	const gate = new Promise<void>((resolve) => (release = resolve));
	return { release, send: async (request: PasswordResetRequest) => (await gate, void sent.push(request)) };
}

const auth = (send: (request: PasswordResetRequest) => Promise<void>) =>
	SvelteKitAuth({ secret: 'sveltekit-wait-until-secret-0123456789abcdef', trustHost: true, adapter: store.adapter, providers: [Password({ hasher: FAST, sendPasswordReset: send })], logger: recording().logger });

function forgotEvent(url: string, platform: unknown) {
	const event = requestEvent(url, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
		body: new URLSearchParams({ email: 'ada@example.com' })
	});
	return Object.assign(event, { platform });
}

test.each([
	['platform.ctx (adapter-cloudflare 8)', (waitUntil: (p: Promise<unknown>) => void) => ({ ctx: { waitUntil } })],
	['platform.context (older adapters)', (waitUntil: (p: Promise<unknown>) => void) => ({ context: { waitUntil } })]
])('the REST route hands the message to %s, and it is sent when that promise settles', async (_label, platformOf) => {
	const { send, release } = slowSender();
	const kept: Promise<unknown>[] = [];
	const res = (await answer(auth(send).handle, forgotEvent('http://localhost/auth/forgot-password/password', platformOf((p) => void kept.push(p))))) as Response;
	expect(res.status).toBe(302);
	expect(kept).toHaveLength(1);
	expect(sent).toEqual([]);
	release();
	await kept[0];
	expect(sent.map((request) => request.identifier)).toEqual(['ada@example.com']);
});

test('a form action hands it over too; without a platform nothing is asked of one', async () => {
	const { send, release } = slowSender();
	const kept: Promise<unknown>[] = [];
	const actions = auth(send).passwords.actions();
	await actions.forgotPassword(forgotEvent('http://localhost/account', { ctx: { waitUntil: (p: Promise<unknown>) => void kept.push(p) } })).catch((error) => {
		if (!isRedirect(error)) throw error;
	});
	expect(kept).toHaveLength(1);
	release();
	await kept[0];
	expect(sent).toHaveLength(1);
	await actions.forgotPassword(forgotEvent('http://localhost/account', undefined)).catch((error) => {
		if (!isRedirect(error)) throw error;
	});
	await expect.poll(() => sent.length).toBe(2);
});
