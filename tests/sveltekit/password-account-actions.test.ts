/**
 * The password account's form actions for the signed-in user (`passwords.actions()`:
 * `changePassword`, `changeEmail`, `deleteAccount`, `resendVerification`), driven in process as
 * SvelteKit calls them, on a real libSQL database with database sessions: a refusal is
 * `fail(status, { failed, fieldErrors, formErrors })`, a success its data (cookies set), the same
 * steps as the REST routes.
 */
import { isActionFailure, isRedirect } from '@sveltejs/kit';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { AccountEmailRequest } from '../../src/lib/core/types/provider.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import Password from '../../src/lib/providers/password.js';
import { openStore, sha256, type Store } from '../integration/database-fixtures.js';
import { deploymentEnv, recording, requestEvent } from './kit-event.js';

const SECRET = 'sveltekit-password-account-secret-0123456789abcdef';
const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const PASSWORD = 'correct horse battery staple';
const NEW = 'a whole new passphrase';

deploymentEnv();

let store: Store;
let mails: AccountEmailRequest[];
beforeEach(async () => {
	store = await openStore('memory');
	mails = [];
});
afterEach(() => store.close());

const app = () =>
	SvelteKitAuth({
		secret: SECRET,
		trustHost: true,
		adapter: store.adapter,
		providers: [Password({ hasher: FAST, sendAccountEmail: (mail) => void mails.push(mail), sendSignUpEmail: () => {} })],
		logger: recording().logger
	}).passwords.actions();

/** A password user with a database session made `age` ms ago; the session cookie's value. */
async function signedInUser(email = 'ada@example.com', age = 0): Promise<{ id: string; cookie: string }> {
	const id = crypto.randomUUID();
	await store.adapter.createPasswordUser!({ id, email, emailVerified: null }, await FAST.hash(PASSWORD));
	const token = crypto.randomUUID();
	await store.adapter.createSession!({ sessionToken: sha256(token), userId: id, expires: new Date(Date.now() + 86_400_000) });
	await store.db.execute({ sql: 'UPDATE "session" SET "createdAt" = ? WHERE "userId" = ?', args: [Date.now() - age, id] });
	return { id, cookie: `authjs.session-token=${token}` };
}

const post = (fields: Record<string, string>, cookie?: string) =>
	requestEvent('http://localhost/account', {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
		body: new URLSearchParams(fields)
	});

async function outcome(run: Promise<unknown>) {
	try {
		const result = await run;
		return isActionFailure(result) ? { status: result.status, data: result.data } : { result };
	} catch (error) {
		if (isRedirect(error)) return { status: error.status, location: error.location };
		throw error;
	}
}

test('changePassword: with the current password the data is { changed: true }; a wrong one is fail(403) under its field', async () => {
	const { id, cookie } = await signedInUser();
	const wrong = await outcome(app().changePassword(post({ currentPassword: 'not it at all', newPassword: NEW }, cookie)));
	expect(wrong).toEqual({ status: 403, data: { failed: true, fieldErrors: { currentPassword: ['The current password is wrong.'] }, formErrors: [] } });
	expect(await outcome(app().changePassword(post({ currentPassword: PASSWORD, newPassword: NEW }, cookie)))).toEqual({ result: { changed: true } });
	const stored = (await store.adapter.getPasswordUser!('ada@example.com'))!;
	expect(stored.user.id).toBe(id);
	expect(await FAST.verify(NEW, stored.passwordHash)).toBe(true);
	expect(await store.sessions()).toHaveLength(1);
});

test('changePassword: a refused new password is fail(400); signed out is fail(401)', async () => {
	const { cookie } = await signedInUser();
	const short = await outcome(app().changePassword(post({ currentPassword: PASSWORD, newPassword: 'short' }, cookie)));
	expect(short).toMatchObject({ status: 400, data: { failed: true, fieldErrors: { newPassword: [expect.stringMatching(/too short/)] } } });
	const out = await outcome(app().changePassword(post({ currentPassword: PASSWORD, newPassword: NEW })));
	expect(out).toEqual({ status: 401, data: { failed: true, fieldErrors: {}, formErrors: ['Sign in first.'] } });
});

test('changeEmail: { requested: true }, the link to the new address', async () => {
	const { cookie } = await signedInUser();
	expect(await outcome(app().changeEmail(post({ currentPassword: PASSWORD, email: 'new@example.com' }, cookie)))).toEqual({ result: { requested: true } });
	await expect.poll(() => mails.map((mail) => mail.kind).sort()).toEqual(['confirm-email', 'email-change-requested']);
});

test('deleteAccount: refused without a recent sign-in (fail 403, reauthenticate); after one, { deleted: true } and the user gone', async () => {
	const stale = await signedInUser('old@example.com', 3_600_000);
	expect(await outcome(app().deleteAccount(post({}, stale.cookie)))).toMatchObject({ status: 403, data: { failed: true, reauthenticate: true } });
	const fresh = await signedInUser();
	const event = post({}, fresh.cookie);
	expect(await outcome(app().deleteAccount(event))).toEqual({ result: { deleted: true } });
	expect(await store.adapter.getUser!(fresh.id)).toBeNull();
	expect(await store.adapter.getUser!(stale.id)).not.toBeNull();
});

test('resendVerification: to "check your email" (303) for any address; an unusable one is fail(400)', async () => {
	expect(await outcome(app().resendVerification(post({ email: 'nobody@example.com' })))).toEqual({ status: 303, location: 'http://localhost/auth/verify-email/password' });
	expect(await outcome(app().resendVerification(post({ email: 'nope' })))).toMatchObject({ status: 400, data: { failed: true, fieldErrors: { email: [expect.any(String)] } } });
});

test('hostile input: missing and huge fields are 4xx failures, never a throw', async () => {
	const { cookie } = await signedInUser();
	const actions = app();
	for (const run of [
		actions.changePassword(post({}, cookie)),
		actions.changePassword(post({ currentPassword: 'x'.repeat(50_000), newPassword: 'y'.repeat(50_000) }, cookie)),
		actions.changeEmail(post({ email: 'z'.repeat(50_000) }, cookie)),
		actions.deleteAccount(post({ currentPassword: 'q'.repeat(50_000) }, cookie))
	]) {
		const answer = await outcome(run);
		expect(answer.status).toBeGreaterThanOrEqual(400);
		expect(answer.status).toBeLessThan(500);
	}
});
