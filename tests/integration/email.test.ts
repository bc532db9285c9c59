/**
 * Email sign-in (magic links) through the real `Auth()`, a real SMTP server and a real libSQL
 * store: the link's round trip (request, message, confirmation page, sign-in), new and existing
 * users, events, the `signIn` callback, one-time codes, both session strategies, and the
 * configuration rules.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { signIn as clientSignIn } from '../../src/lib/client/index.js';
import { createAuthServer } from '../../src/lib/core/index.js';
import type { Session } from '../../src/lib/core/types.js';
import { ORIGIN, SESSION_COOKIE, location, sessionCookiesSet } from './fixtures.js';
import {
	emailSetup,
	expectVerifyRequest,
	followLink,
	lastMessageTo,
	openEmailWorld,
	PROVIDER,
	requestLink,
	type EmailWorld
} from './email-fixtures.js';

const worlds: EmailWorld[] = [];
async function world(): Promise<EmailWorld> {
	const w = await openEmailWorld();
	worlds.push(w);
	return w;
}
afterEach(async () => {
	vi.unstubAllGlobals();
	while (worlds.length) await worlds.pop()!.close();
});

describe.each(['database', 'jwt'] as const)('a link round trip (%s sessions)', (strategy) => {
	test('request → message → confirmation page → sign-in as a new, verified user', async () => {
		const w = await world();
		const s = emailSetup(w, {}, { session: { strategy } });
		const client = s.client();
		const res = await requestLink(client, 'Ann@Example.com', { callbackUrl: '/welcome' });
		expectVerifyRequest(res, ORIGIN);
		expect(sessionCookiesSet(res)).toEqual([]);

		const { message, link } = lastMessageTo(w, 'ann@example.com');
		expect(message.subject).toBe('Sign in to localhost:3000');
		expect(message.from?.text).toContain('no-reply@example.test');
		expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/${PROVIDER}`);
		expect([...link.searchParams.keys()]).toEqual(['callbackUrl', 'token', 'email']);
		expect(link.searchParams.get('email')).toBe('ann@example.com');
		expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{64}$/);

		// Stored hashed: the raw token is nowhere in the table.
		const rows = await w.tokens();
		expect(rows).toHaveLength(1);
		expect(rows[0]!.identifier).toBe('ann@example.com');
		expect(rows[0]!.token).not.toContain(link.searchParams.get('token'));

		const other = s.client();
		const { page, html, signIn } = await followLink(other, link);
		expect(page.status).toBe(200);
		expect(html).toContain('ann@example.com');
		expect(signIn.status).toBe(302);
		expect(location(signIn).href).toBe(`${ORIGIN}/welcome`);
		expect(sessionCookiesSet(signIn)).toEqual([SESSION_COOKIE]);
		const session = (await other.session()) as Session;
		expect(session.user?.email).toBe('ann@example.com');

		const [user] = await w.store.users();
		expect(user?.email).toBe('ann@example.com');
		expect(user?.emailVerified).toBeGreaterThan(Date.now() - 60_000);
		const account = await w.store.adapter.getUserByAccount({ provider: PROVIDER, providerAccountId: 'ann@example.com' });
		expect(account?.id).toBe(user?.id);
		expect(w.events.map((e) => e.name)).toEqual(['createUser', 'linkAccount', 'signIn']);
		expect(w.events[1]!.message.account).toMatchObject({ type: 'email', provider: PROVIDER, providerAccountId: 'ann@example.com' });
		expect(w.events[2]!.message.isNewUser).toBe(true);
		expect(await w.tokens()).toEqual([]);
	});
});

describe('existing users', () => {
	test('an existing user gets emailVerified once (updateUser), the email account is linked once', async () => {
		const w = await world();
		const created = await w.store.adapter.createUser({ id: 'user-bo', email: 'bo@example.com', emailVerified: null, name: 'Bo' });
		const s = emailSetup(w);
		const client = s.client();
		expectVerifyRequest(await requestLink(client, 'bo@example.com'), ORIGIN);
		const first = await followLink(client, lastMessageTo(w, 'bo@example.com').link);
		expect(first.signIn.status).toBe(302);
		expect(((await client.session()) as Session).user?.name).toBe('Bo');
		const [user] = await w.store.users();
		expect(user?.id).toBe(created.id);
		expect(user?.emailVerified).toBeGreaterThan(Date.now() - 60_000);
		expect(w.events.map((e) => e.name)).toEqual(['updateUser', 'linkAccount', 'signIn']);
		expect(w.events[2]!.message.isNewUser).toBe(false);

		// The second time: already verified and linked, so only the sign-in.
		w.events.length = 0;
		const verifiedAt = user?.emailVerified;
		await requestLink(client, 'bo@example.com');
		const again = await followLink(client, lastMessageTo(w, 'bo@example.com').link);
		expect(again.signIn.status).toBe(302);
		expect(w.events.map((e) => e.name)).toEqual(['signIn']);
		expect((await w.store.users())[0]?.emailVerified).toBe(verifiedAt);
	});

	test('a user who signed up otherwise (no email account yet) is found by address', async () => {
		const w = await world();
		await w.store.adapter.createUser({ id: 'user-cy', email: 'cy@example.com', emailVerified: new Date(1_000), name: 'Cy' });
		await w.store.adapter.linkAccount({ userId: 'user-cy', type: 'oidc', provider: 'idp', providerAccountId: 'cy-at-idp' });
		const s = emailSetup(w);
		const client = s.client();
		await requestLink(client, 'cy@example.com');
		const { signIn } = await followLink(client, lastMessageTo(w, 'cy@example.com').link);
		expect(signIn.status).toBe(302);
		expect(((await client.session()) as Session).user?.name).toBe('Cy');
		expect((await w.store.users()).map((u) => [u.id, u.emailVerified])).toEqual([['user-cy', 1_000]]);
		expect(await w.store.adapter.getUserByAccount({ provider: PROVIDER, providerAccountId: 'cy@example.com' })).toMatchObject({ id: 'user-cy' });
	});
});

describe('the signIn callback', () => {
	test('is asked before sending (verificationRequest) and after the link (without it)', async () => {
		const w = await world();
		await w.store.adapter.createUser({ id: 'user-di', email: 'di@example.com', emailVerified: null });
		const calls: Record<string, unknown>[] = [];
		const s = emailSetup(w, {}, { callbacks: { signIn: (params) => (calls.push({ ...params }), true) } });
		const client = s.client();
		await requestLink(client, 'di@example.com');
		await requestLink(client, 'new@example.com');
		expect(calls).toHaveLength(2);
		expect(calls[0]).toMatchObject({
			user: { id: 'user-di', email: 'di@example.com' },
			account: { type: 'email', provider: PROVIDER, providerAccountId: 'di@example.com', userId: 'user-di' },
			email: { verificationRequest: true }
		});
		expect(calls[1]).toMatchObject({ user: { email: 'new@example.com', emailVerified: null }, email: { verificationRequest: true } });
		await followLink(client, lastMessageTo(w, 'di@example.com').link);
		expect(calls[2]).toMatchObject({ user: { id: 'user-di' }, account: { type: 'email', providerAccountId: 'di@example.com' } });
		expect(calls[2]).not.toHaveProperty('email');
	});

	test('false: AccessDenied, no message, no token', async () => {
		const w = await world();
		const s = emailSetup(w, {}, { callbacks: { signIn: ({ email }) => !email?.verificationRequest } });
		const res = await requestLink(s.client(), 'eve@example.com');
		expect(res.status).toBe(302);
		expect(location(res).href).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
		expect(w.mailbox.messages).toEqual([]);
		expect(await w.tokens()).toEqual([]);
	});

	test('a string: redirect there (through the redirect callback), no message', async () => {
		const w = await world();
		const s = emailSetup(w, {}, { callbacks: { signIn: () => '/not-you' } });
		const res = await requestLink(s.client(), 'fay@example.com');
		expect(location(res).href).toBe(`${ORIGIN}/not-you`);
		expect(w.mailbox.messages).toEqual([]);
		expect(await w.tokens()).toEqual([]);
	});
});

describe('no enumeration', () => {
	test('known and unknown addresses get the same answer and the same side effects', async () => {
		const w = await world();
		await w.store.adapter.createUser({ id: 'user-gu', email: 'gu@example.com', emailVerified: new Date() });
		const s = emailSetup(w);
		const answers = [];
		for (const address of ['gu@example.com', 'nobody@example.com']) {
			const client = s.client();
			await client.csrfToken();
			const res = await requestLink(client, address);
			answers.push({
				status: res.status,
				location: res.headers.get('location'),
				cookies: res.headers.getSetCookie().map((c) => c.split('=')[0]).sort(),
				body: await res.text(),
				messages: w.mailbox.to(address).length,
				tokens: (await w.tokens()).filter((t) => t.identifier === address).length
			});
		}
		expect(answers[0]).toEqual(answers[1]);
		expect(answers[0]!.messages).toBe(1);
		expect(answers[0]!.tokens).toBe(1);
	});
});

describe('other ways to ask for a link', () => {
	test('the server API (SvelteKit form action): signIn(request, id, {fields: {email}})', async () => {
		const w = await world();
		const s = emailSetup(w);
		const server = createAuthServer(s.config);
		const url = new URL(`${ORIGIN}/signin`);
		const request = new Request(url, { method: 'POST' });
		const redirect = await server.signIn({ url, request }, PROVIDER, { fields: { email: 'hal@example.com' }, callbackUrl: `${ORIGIN}/account` });
		expect(redirect.url).toBe(`${ORIGIN}/auth/verify-request?provider=${PROVIDER}&type=email`);
		const { link } = lastMessageTo(w, 'hal@example.com');
		expect(link.searchParams.get('callbackUrl')).toBe(`${ORIGIN}/account`);
		const client = s.client();
		const { signIn } = await followLink(client, link);
		expect(location(signIn).href).toBe(`${ORIGIN}/account`);
	});

	test('the browser client (X-Auth-Return-Redirect): 200 {url}', async () => {
		const w = await world();
		const s = emailSetup(w);
		const res = await s.client().postForm(`signin/${PROVIDER}`, { email: 'ida@example.com' }, { headers: { 'x-auth-return-redirect': '1' } });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ url: `${ORIGIN}/auth/verify-request?provider=${PROVIDER}&type=email` });
		expect(w.mailbox.to('ida@example.com')).toHaveLength(1);
	});

	test("kitauth/client: signIn('nodemailer', { email }) sends the link and goes to verify-request", async () => {
		const w = await world();
		const client = emailSetup(w).client();
		const location = { href: `${ORIGIN}/somewhere`, reload() {} };
		vi.stubGlobal('window', { location });
		vi.stubGlobal('fetch', (input: string | URL, init: RequestInit = {}) =>
			client.request(new URL(String(input), location.href).href, {
				method: init.method ?? 'GET',
				headers: Object.fromEntries(new Headers(init.headers)),
				body: init.body ?? undefined
			})
		);
		const result = await clientSignIn(PROVIDER, { email: 'jo@example.com', redirectTo: '/after' });
		expect(result).toMatchObject({ ok: true, error: null });
		expect(location.href).toBe(`${ORIGIN}/auth/verify-request?provider=${PROVIDER}&type=email`);
		const { link } = lastMessageTo(w, 'jo@example.com');
		expect(link.searchParams.get('callbackUrl')).toBe(`${ORIGIN}/after`);
	});

	test('the built-in sign-in page has a form for each email provider', async () => {
		const w = await world();
		const html = await (await emailSetup(w).client().get('signin')).text();
		expect(html).toContain(`action="${ORIGIN}/auth/signin/${PROVIDER}"`);
		expect(html).toMatch(/<input[^>]*name="email"[^>]*type="email"/);
		expect(html).toContain('Sign in with Nodemailer');
	});
});
