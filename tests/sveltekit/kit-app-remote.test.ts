/**
 * kitauth/remote (SvelteKit 3.2 remote functions) in a real app: tests/kit-app, built with
 * `experimental.remoteFunctions` and served by adapter-node, driven over HTTP as kit's browser
 * client drives it (tests/sveltekit/kit-remote.ts) and as a browser without JavaScript posts.
 *
 * Its page `/base/remote` renders kitauth's `SignIn` and `SignOut` on `kitauth/remote`'s forms and
 * a guarded form of the app's own; `src/routes/remote/data.remote.ts` holds the app's guarded
 * remote functions; `/base/remote/fanout` makes many remote calls in one request.
 */
import type { Client } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isDeletion, setCookies, type TestClient } from '../support/client.js';
import type { RogueIdp } from '../support/rogue-idp.js';
import type { RunningApp } from './kit-app-server.js';
import { type KitAppWithIdp, startKitAppWithIdp } from './kit-app-idp.js';
import { appBrowser, HTML, pageState, postEnhanced } from './kit-client.js';
import { type RemoteAnswer, remoteCommand, remoteForm, remoteId, remoteQuery } from './kit-remote.js';

const BASE = '/base';
const SESSION_COOKIE = 'authjs.session-token';
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

let fixture: KitAppWithIdp;
let app: RunningApp;
let db: Client;
let rogue: RogueIdp;
/** The ids (`<hash>/<name>`) of the remote functions the tests call. */
const ids: Record<'session' | 'signIn' | 'signOut' | 'updateSession' | 'whoami' | 'adminReport' | 'aboutMe' | 'shout' | 'note', string> = {
	session: '',
	signIn: '',
	signOut: '',
	updateSession: '',
	whoami: '',
	adminReport: '',
	aboutMe: '',
	shout: '',
	note: ''
};

beforeAll(async () => {
	fixture = await startKitAppWithIdp();
	({ app, rogue, db } = fixture);
	// kitauth's functions share one module (one hash), the app's another.
	const html = await (await browser().get('/base/remote', { headers: HTML })).text();
	const kitauth = remoteId(html, 'signIn').split('/')[0];
	const own = remoteId(html, 'note').split('/')[0];
	for (const name of ['session', 'signIn', 'signOut', 'updateSession'] as const) ids[name] = `${kitauth}/${name}`;
	for (const name of ['whoami', 'adminReport', 'aboutMe', 'shout', 'note'] as const) ids[name] = `${own}/${name}`;
}, 120_000);

afterAll(async () => {
	await fixture?.stop();
});

function browser(): TestClient {
	return appBrowser(app.origin, '/base/api/auth', 'kit-app remote test');
}

const call = {
	query: (client: TestClient, name: keyof typeof ids, arg?: unknown) => remoteQuery(client, BASE, ids[name], arg),
	command: (client: TestClient, name: keyof typeof ids, arg?: unknown) => remoteCommand(client, BASE, ids[name], arg),
	form: (client: TestClient, name: keyof typeof ids, fields: Record<string, string>) => remoteForm(client, BASE, ids[name], '/base/remote', fields)
};

function value(answer: RemoteAnswer): unknown {
	if (answer.type !== 'result') throw new Error(`the call failed: ${answer.status} ${answer.message}`);
	return answer.value;
}

/** Signs in with kitauth/remote's sign-in form, as kit's client submits it. */
async function signIn(client: TestClient): Promise<void> {
	const answer = await call.form(client, 'signIn', { providerId: 'credentials', ...ALICE, redirectTo: '/base/remote/fanout' });
	expect(answer).toMatchObject({ type: 'result', redirect: `${app.origin}/base/remote/fanout` });
	expect(client.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
}

/** The `<form>` and `<input>` tags of a page. */
function formTags(html: string): string[] {
	return html.match(/<(form|input)\b[^>]*>/g) ?? [];
}

describe('the components on kitauth/remote forms', () => {
	test('SignIn and SignOut post to the remote forms, every input named by kit (field.as), one instance per form', async () => {
		const tags = formTags(await (await browser().get('/base/remote', { headers: HTML })).text());
		const signInForm = tags.find((tag) => tag.includes('data-provider="credentials"'));
		expect(signInForm).toMatch(new RegExp(`action="\\?/remote=${ids.signIn}/%22[a-z0-9]+%2Fcredentials%22"`));
		expect(signInForm).toMatch(/method="POST"/);
		for (const name of ['providerId', 'redirectTo', 'email', 'password']) {
			expect(tags.some((tag) => tag.includes(`name="${name}/${ids.signIn}"`))).toBe(true);
		}
		expect(tags.filter((tag) => /name="(email|password|providerId)"/.test(tag))).toEqual([]);
		expect(tags.some((tag) => new RegExp(`action="\\?/remote=${ids.signOut}/%22[a-z0-9]+%22"`).test(tag))).toBe(true);
		expect(tags.some((tag) => tag.includes(`name="redirectTo/${ids.signOut}" value="/base/remote"`))).toBe(true);
	});
});

describe('sign-in and sign-out without JavaScript (the page posts to itself)', () => {
	async function postPlain(client: TestClient, action: string, fields: Record<string, string>, id: string) {
		const form = Object.fromEntries(Object.entries(fields).map(([name, content]) => [`${name}/${id}`, content]));
		return client.post(`/base/remote${action}`, { form, headers: HTML });
	}

	async function signInAction(client: TestClient): Promise<string> {
		const html = await (await client.get('/base/remote', { headers: HTML })).text();
		const action = /action="(\?\/remote=[^"]*signIn[^"]*)"/.exec(html)?.[1];
		if (!action) throw new Error('no sign-in form');
		return action.replaceAll('&amp;', '&');
	}

	test('signs in: 303 to redirectTo with the session cookie', async () => {
		const client = browser();
		const res = await postPlain(client, await signInAction(client), { providerId: 'credentials', ...ALICE, redirectTo: '/base/remote/fanout' }, ids.signIn);
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${app.origin}/base/remote/fanout`);
		expect(client.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
	});

	test('a refused password: the page again with the message and the email, never the password (not even in its data)', async () => {
		const client = browser();
		const password = 'wrong-password-do-not-echo';
		const res = await postPlain(client, await signInAction(client), { providerId: 'credentials', email: ALICE.email, password }, ids.signIn);
		expect(res.status).toBe(200);
		const html = await res.text();
		expect(html).toContain('Sign in failed. Check the details you provided are correct.');
		expect(html).toMatch(new RegExp(`name="email/${ids.signIn}"[^>]*value="alice@example.com"`));
		expect(html).not.toContain(password);
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('signs out: 303 to redirectTo, the session cookie deleted', async () => {
		const client = browser();
		await signIn(client);
		const html = await (await client.get('/base/remote', { headers: HTML })).text();
		const action = /action="(\?\/remote=[^"]*signOut[^"]*)"/.exec(html)![1]!.replaceAll('&amp;', '&');
		const res = await postPlain(client, action, { redirectTo: '/base/remote' }, ids.signOut);
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${app.origin}/base/remote`);
		expect(setCookies(res).some((cookie) => cookie.name === SESSION_COOKIE && isDeletion(cookie))).toBe(true);
		expect(value(await call.query(client, 'session'))).toBeNull();
	});
});

describe('sign-in and sign-out with JavaScript (kit\'s enhanced submissions)', () => {
	test('a refusal is the form\'s result, in exactly the shape of the signIn form action\'s failure', async () => {
		const client = browser();
		const wrong = { providerId: 'credentials', email: ALICE.email, password: 'wrong' };
		const remote = value(await call.form(client, 'signIn', wrong));
		const { body } = await postEnhanced(client, '/base/form', 'signIn', wrong);
		expect(body).toMatchObject({ type: 'failure', status: 400 });
		expect(remote).toEqual(body.data);
		expect(remote).toEqual({
			providerId: 'credentials',
			failed: true,
			fieldErrors: {},
			formErrors: ['Sign in failed. Check the details you provided are correct.'],
			error: 'CredentialsSignin',
			code: 'credentials',
			values: { email: ALICE.email }
		});
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('hostile input: an unknown provider, an off-site redirectTo, typed or nested fields: a failure, and no session', async () => {
		const client = browser();
		expect(value(await call.form(client, 'signIn', { providerId: 'nope' }))).toMatchObject({
			failed: true,
			fieldErrors: { providerId: ['Unknown provider "nope".'] }
		});
		expect(value(await call.form(client, 'signIn', { providerId: 'credentials', ...ALICE, redirectTo: 'https://evil.example/' }))).toMatchObject({
			failed: true,
			fieldErrors: { redirectTo: ['Must be a path on this site.'] }
		});
		// kit turns `n:` names into numbers and dotted names into objects: not text, refused.
		expect(value(await call.form(client, 'signIn', { providerId: 'credentials', ...ALICE, 'n:age': '5', 'profile.name': 'x' }))).toEqual({
			failed: true,
			fieldErrors: {},
			formErrors: ['Field "age" must be text.', 'Field "profile" must be text.']
		});
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('signs in (the redirect kit follows, the session cookie), then the session query has the user', async () => {
		const client = browser();
		expect(value(await call.query(client, 'session'))).toBeNull();
		await signIn(client);
		expect(value(await call.query(client, 'session'))).toMatchObject({ user: { email: ALICE.email, name: 'Alice' }, expires: expect.any(String) });
	});

	test('signs out: the redirect, the cookie deleted, the session query null', async () => {
		const client = browser();
		await signIn(client);
		expect(await call.form(client, 'signOut', { redirectTo: '/base/remote' })).toMatchObject({ type: 'result', redirect: `${app.origin}/base/remote` });
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
		expect(value(await call.query(client, 'session'))).toBeNull();
	});
});

describe('updateSession (a command)', () => {
	test('runs the session callback with trigger update, and sends the session query along (single-flight)', async () => {
		const client = browser();
		await signIn(client);
		const answer = await call.command(client, 'updateSession', { nickname: 'Al' });
		expect(answer).toMatchObject({ type: 'result', value: { nickname: 'Al', user: { email: ALICE.email } } });
		expect(answer.type === 'result' && answer.refreshed).toEqual({ [`${ids.session}/`]: (answer as { value: unknown }).value });
	});

	test('signed out: null', async () => {
		expect(value(await call.command(browser(), 'updateSession', { nickname: 'x' }))).toBeNull();
	});

	test('hostile data: not plain JSON, too deep, too large: 400, the callback never runs', async () => {
		const client = browser();
		await signIn(client);
		let deep: unknown = 'bottom';
		for (let i = 0; i < 40; i++) deep = [deep];
		for (const data of [new Date(0), new Map([['a', 1]]), { big: 1n }, deep, { text: 'x'.repeat(70_000) }]) {
			expect(await call.command(client, 'updateSession', data)).toEqual({ type: 'error', status: 400, message: 'Bad Request' });
		}
	});

	test('from another site: 403 (kit refuses cross-site remote calls, so no CSRF token is needed)', async () => {
		const client = browser();
		await signIn(client);
		const res = await client.post(`/base/_app/remote/${ids.updateSession}`, { json: { payload: '' }, headers: { origin: 'https://evil.example' } });
		expect(res.status).toBe(403);
	});
});

describe('guard() on the app\'s own remote functions', () => {
	test('signed out: 401 from a query, a command and a form', async () => {
		const client = browser();
		expect(await call.query(client, 'whoami')).toEqual({ type: 'error', status: 401, message: 'Sign in to continue.' });
		expect(await call.command(client, 'shout', 'hi')).toEqual({ type: 'error', status: 401, message: 'Sign in to continue.' });
		expect(await call.form(client, 'note', { text: 'hello' })).toEqual({ type: 'error', status: 401, message: 'Sign in to continue.' });
	});

	test('signed in: the handler gets the session first, then kit\'s arguments', async () => {
		const client = browser();
		await signIn(client);
		expect(value(await call.query(client, 'whoami'))).toBe(ALICE.email);
		expect(value(await call.command(client, 'shout', 'hi'))).toBe(`${ALICE.email}: HI`);
		expect(value(await call.form(client, 'note', { text: 'hello' }))).toEqual({ saved: `${ALICE.email}: hello` });
		expect(value(await call.query(client, 'aboutMe', ALICE.email))).toBe(`about ${ALICE.email}`);
	});

	test('403 without the role, or when the check refuses', async () => {
		const client = browser();
		await signIn(client);
		expect(await call.query(client, 'adminReport')).toEqual({ type: 'error', status: 403, message: 'Not allowed.' });
		expect(await call.query(client, 'aboutMe', 'bob@example.com')).toEqual({ type: 'error', status: 403, message: 'Not allowed.' });
		// The schema before the guard: kit's 400.
		expect(await call.query(client, 'aboutMe', 'not an address')).toEqual({ type: 'error', status: 400, message: 'Bad Request' });
	});
});

describe('many remote calls in one request (/base/remote/fanout: the session, a guarded query, three needing the access token)', () => {
	async function fanout(client: TestClient) {
		const res = await client.get('/base/remote/fanout', { headers: HTML });
		return { status: res.status, state: pageState(await res.text()) };
	}

	test('the session is read from the store once', async () => {
		const client = browser();
		await signIn(client);
		const { status, state } = await fanout(client);
		expect(status).toBe(200);
		expect(state.data).toMatchObject({ email: ALICE.email, who: ALICE.email, reads: 1 });
	});

	test('signed out: the guarded calls answer 401', async () => {
		expect((await fanout(browser())).status).toBe(401);
	});

	test('an expired access token is refreshed once, and every call gets the new one', async () => {
		const client = browser();
		const start = await client.postForm('signin/rogue');
		expect(start.status).toBe(302);
		const callback = await rogue.completeInteraction(start.headers.get('location') ?? '');
		expect((await client.get(callback.href)).status).toBe(302);
		const { rows } = await db.execute({ sql: 'SELECT access_token FROM account WHERE provider = ?', args: ['rogue'] });
		const before = rows[0]?.access_token;
		await db.execute({ sql: 'UPDATE account SET expires_at = 1 WHERE provider = ?', args: ['rogue'] });
		rogue.resetCounts();
		const { status, state } = await fanout(client);
		expect(status).toBe(200);
		const tokens = state.data.tokens as string[];
		expect(tokens[0]).toEqual(expect.any(String));
		expect(tokens[0]).not.toBe(before);
		expect(tokens).toEqual([tokens[0], tokens[0], tokens[0]]);
		expect(rogue.counts().token).toBe(1);
		expect(state.data.reads).toBe(1);
	});
});
