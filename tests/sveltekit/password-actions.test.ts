/**
 * The password accounts' form actions (`passwords.actions()`), driven in process as SvelteKit
 * calls them, on a real libSQL database: a refusal is the form's data (the reason under its field,
 * the address kept), a success redirects (303) as the REST routes do, and "forgot your password?"
 * answers alike for known and unknown addresses.
 */
import { isActionFailure, isRedirect } from '@sveltejs/kit';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { PasswordResetRequest } from '../../src/lib/core/types/provider.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import Password from '../../src/lib/providers/password.js';
import { openStore, type Store } from '../integration/database-fixtures.js';
import { deploymentEnv, recording, requestEvent } from './kit-event.js';

const SECRET = 'sveltekit-password-actions-secret-0123456789abcdef';
const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const PASSWORD = 'correct horse battery staple';

deploymentEnv();

let store: Store;
let sent: PasswordResetRequest[];
beforeEach(async () => {
	store = await openStore('memory');
	sent = [];
});
afterEach(() => store.close());

const app = () =>
	SvelteKitAuth({
		secret: SECRET,
		trustHost: true,
		adapter: store.adapter,
		providers: [Password({ hasher: FAST, sendPasswordReset: (request) => void sent.push(request) })],
		logger: recording().logger
	}).passwords.actions();

const post = (fields: Record<string, string>) =>
	requestEvent('http://localhost/account', {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields)
	});

/** What the action answered: its failure's status and data, or where it redirected. */
async function outcome(run: Promise<unknown>) {
	try {
		const result = await run;
		return isActionFailure(result) ? { status: result.status, data: result.data } : { result };
	} catch (error) {
		if (isRedirect(error)) return { status: error.status, location: error.location };
		throw error;
	}
}

test('a sign-up refused for a short password says why under the field and keeps the email', async () => {
	const answer = await outcome(app().signUp(post({ email: 'ada@example.com', password: 'short' })));
	expect(answer).toMatchObject({ status: 400, data: { failed: true, formErrors: [], values: { email: 'ada@example.com' } } });
	expect(answer.data).toMatchObject({ fieldErrors: { password: [expect.stringMatching(/too short/i)] } });
	expect(await store.adapter.getPasswordUser!('ada@example.com')).toBeNull();
});

test('a sign-up with a bad address says so under the email field', async () => {
	const answer = await outcome(app().signUp(post({ email: '', password: PASSWORD })));
	expect(answer).toMatchObject({ status: 400, data: { failed: true, fieldErrors: { email: [expect.any(String)] } } });
});

test('a sign-up succeeds: the account exists and the action redirects to the sign-in page (303)', async () => {
	const answer = await outcome(app().signUp(post({ email: 'ada@example.com', password: PASSWORD, callbackUrl: '/home' })));
	expect(answer.status).toBe(303);
	const to = new URL(answer.location!);
	expect(to.pathname).toBe('/auth/signin');
	expect(to.searchParams.get('callbackUrl')).toBe('http://localhost/home');
	expect((await store.adapter.getPasswordUser!('ada@example.com'))?.user.email).toBe('ada@example.com');
});

test('forgot-password answers the same for a known and an unknown address; only the known gets a link', async () => {
	const actions = app();
	await outcome(actions.signUp(post({ email: 'ada@example.com', password: PASSWORD })));
	const known = await outcome(actions.forgotPassword(post({ email: 'ada@example.com' })));
	const unknown = await outcome(actions.forgotPassword(post({ email: 'nobody@example.com' })));
	expect(known).toEqual({ status: 303, location: 'http://localhost/auth/reset-password/password' });
	expect(unknown).toEqual(known);
	await expect.poll(() => sent.length).toBe(1);
	expect(sent[0]!.identifier).toBe('ada@example.com');
});

test('a reset with a bad token is refused (400, a form error) and the password stays', async () => {
	const actions = app();
	await outcome(actions.signUp(post({ email: 'ada@example.com', password: PASSWORD })));
	const { user } = (await store.adapter.getPasswordUser!('ada@example.com'))!;
	const answer = await outcome(actions.resetPassword(post({ user: user.id, token: 'not-the-token', password: 'a whole new passphrase' })));
	expect(answer).toMatchObject({ status: 400, data: { failed: true, fieldErrors: {}, formErrors: [expect.any(String)] } });
	const kept = (await store.adapter.getPasswordUser!('ada@example.com'))!;
	expect(await FAST.verify(PASSWORD, kept.passwordHash)).toBe(true);
});

test('a reset link works through the action: the new password is set, then to the sign-in page', async () => {
	const actions = app();
	await outcome(actions.signUp(post({ email: 'ada@example.com', password: PASSWORD })));
	await outcome(actions.forgotPassword(post({ email: 'ada@example.com' })));
	await expect.poll(() => sent.length).toBe(1);
	const link = new URL(sent[0]!.url);
	const fields = { user: link.searchParams.get('user')!, token: link.searchParams.get('token')! };
	const short = await outcome(actions.resetPassword(post({ ...fields, password: 'short' })));
	expect(short).toMatchObject({ status: 400, data: { fieldErrors: { password: [expect.any(String)] } } });
	const answer = await outcome(actions.resetPassword(post({ ...fields, password: 'a whole new passphrase' })));
	expect(answer).toMatchObject({ status: 303, location: 'http://localhost/auth/signin' });
	const changed = (await store.adapter.getPasswordUser!('ada@example.com'))!;
	expect(await FAST.verify('a whole new passphrase', changed.passwordHash)).toBe(true);
});

test('an action for a provider that is no Password() one is refused as the form error, 400', async () => {
	const { signUp } = SvelteKitAuth({ secret: SECRET, trustHost: true, adapter: store.adapter, providers: [Password({ hasher: FAST })], logger: recording().logger }).passwords.actions({ provider: 'nope' });
	const answer = await outcome(signUp(post({ email: 'ada@example.com', password: PASSWORD })));
	expect(answer).toMatchObject({ status: 400, data: { failed: true, fieldErrors: {}, formErrors: [expect.any(String)] } });
});
