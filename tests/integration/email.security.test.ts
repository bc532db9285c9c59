/**
 * Email sign-in against hostile input and failing mail servers: malicious addresses (lists, quoted
 * parts, header injection, look-alike `@`: CVE-2022-35924, CVE-2022-31127, GHSA-5jpx-9hw9-2fx4,
 * GHSA-7rqj-j65f-68wh), replayed, foreign, expired and mistaken tokens (CVE-2021-21310,
 * CVE-2022-39263, token confusion as in CVE-2026-110862), a poisoned Host (links follow AUTH_URL),
 * mail scanners, CSRF on the confirmation, and SMTP servers that refuse, are unreachable or are
 * slow (a clear error, no token left behind, nothing hangs). Secrets never reach the logs.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import { formatError } from '../../src/lib/core/logger.js';
import type { OAuthConfig, Session } from '../../src/lib/core/types.js';
import type { RateLimitConfig } from '../../src/lib/core/types/limit.js';
import Email from '../../src/lib/providers/email.js';
import Nodemailer from '../../src/lib/providers/nodemailer.js';
import { closedPort, startSilentServer } from '../support/smtp.js';
import { TestClient } from '../support/client.js';
import { CSRF_COOKIE, ORIGIN, SECRET, SESSION_COOKIE, expectNoSessionGranted, location, sessionCookiesSet, setup } from './fixtures.js';
import {
	emailSetup,
	expectVerifyRequest,
	followLink,
	FROM,
	hiddenFields,
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
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	while (worlds.length) await worlds.pop()!.close();
	while (cleanups.length) await cleanups.pop()!();
});

const EMAIL_SIGNIN = `${ORIGIN}/auth/signin?error=EmailSignin`;
const VERIFICATION = `${ORIGIN}/auth/error?error=Verification`;

/** Everything the logger was given, as it would be printed. */
function logged(errors: Error[]): string {
	return errors.map((error) => `${formatError(error)}\n${error.stack ?? ''}`).join('\n');
}

describe('malicious addresses are refused before anything is sent or stored', () => {
	const HOSTILE: [string, string][] = [
		['two @', 'attacker@evil.example@victim.example'],
		['an empty local part', '@victim.example'],
		['an empty domain', 'victim@'],
		['no @', 'victim.example'],
		['a comma list', 'attacker@evil.example,victim@corp.example'],
		['a list with an empty local part', 'a@evil.example,@corp.example'],
		['a semicolon list', 'attacker@evil.example;victim@corp.example'],
		['a quoted local part', '"e@attacker.example"@victim.example'],
		['a quote anywhere', 'vic"tim@corp.example'],
		['a display name', 'Victim <victim@corp.example>'],
		['a comment', 'victim@corp.example (me)'],
		['a header injection (CRLF)', 'victim@corp.example\r\nBcc: attacker@evil.example'],
		['a bare LF inside', 'victim@corp\n.example'],
		['a fullwidth @ (U+FF20) as a second @', 'attacker@evil.example\uff20victim.example'],
		['a fullwidth @ (U+FF20) alone', 'victim\uff20corp.example'],
		['a small commercial at (U+FE6B)', 'attacker@evil.example\ufe6bvictim.example'],
		['a fullwidth comma (U+FF0C)', 'attacker@evil.example\uff0cvictim@corp.example'],
		['a zero-width space', 'vic\u200btim@corp.example'],
		['a right-to-left override', 'victim@corp\u202e.example'],
		['a tag character', 'victim@corp.example\u{e0040}evil.example'],
		['an IP literal', 'victim@[127.0.0.1]'],
		['relay routing (%)', 'attacker%evil.example@corp.example'],
		['a space inside', 'vic tim@corp.example'],
		['HTML (CVE-2022-31127)', 'victim@corp.example, <a href="https://evil.example">click</a>'],
		['a dot at the start', '.victim@corp.example'],
		['two dots', 'vic..tim@corp.example'],
		['a domain label with a leading hyphen', 'victim@-corp.example'],
		['an empty domain label', 'victim@corp..example'],
		['a local part over 64 characters', `${'a'.repeat(65)}@corp.example`],
		['an address over 254 characters', `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.example`],
		['an empty value', ''],
		['blanks', '   ']
	];

	test.each(HOSTILE)('%s', async (_name, email) => {
		const w = await world();
		let asked = 0;
		const s = emailSetup(w, {}, { callbacks: { signIn: () => (asked++, true) } });
		const res = await requestLink(s.client(), email);
		await expectNoSessionGranted(res);
		expect(location(res).href).toBe(EMAIL_SIGNIN);
		expect(asked).toBe(0);
		expect(w.mailbox.connections).toBe(0);
		expect(await w.tokens()).toEqual([]);
		// Logged, without echoing the address.
		expect(s.errors.map((e) => e.name)).toEqual(['EmailSignInError']);
	});

	test.each([
		['a list (JSON array)', ['attacker@evil.example', 'victim@corp.example']],
		['an object', { toString: 'victim@corp.example' }],
		['a number', 42],
		['no email at all', undefined]
	])('a JSON body with %s', async (_name, email) => {
		const w = await world();
		const s = emailSetup(w);
		const client = s.client();
		const csrfToken = await client.csrfToken();
		const res = await client.post(`signin/${PROVIDER}`, { json: { csrfToken, email } });
		await expectNoSessionGranted(res);
		expect(location(res).href).toBe(EMAIL_SIGNIN);
		expect(w.mailbox.connections).toBe(0);
	});

	test('what is accepted is canonical: NFKC, trimmed, lower-case; the signIn callback sees that value', async () => {
		const w = await world();
		const seen: unknown[] = [];
		const s = emailSetup(w, {}, { callbacks: { signIn: ({ account }) => (seen.push(account?.providerAccountId), true) } });
		// A fullwidth letter is not a separator: it folds to its ASCII letter.
		expectVerifyRequest(await requestLink(s.client(), '  \uff21nn.O\u2019Neil@EXAMPLE.com \t'.replace('\u2019', "'")), ORIGIN);
		expect(seen).toEqual(["ann.o'neil@example.com"]);
		expect(w.mailbox.to("ann.o'neil@example.com")).toHaveLength(1);
		expect(w.mailbox.messages[0]!.to).toMatchObject({ value: [{ address: "ann.o'neil@example.com" }] });
	});

	test('internationalized addresses are kept as one address', async () => {
		const w = await world();
		const s = emailSetup(w);
		expectVerifyRequest(await requestLink(s.client(), 'José@Exämple.com'), ORIGIN);
		expect(w.mailbox.messages).toHaveLength(1);
		expect(w.mailbox.messages[0]!.to).toMatchObject({ value: [{ address: 'josé@exämple.com' }] });
		expect(lastMessageTo(w, 'josé@exämple.com').link.searchParams.get('email')).toBe('josé@exämple.com');
	});
});

describe('the message', () => {
	test('nothing user-controlled is rendered as HTML; the link is its one call to action', async () => {
		const w = await world();
		const s = emailSetup(w, {}, { theme: { brandColor: '"><script>alert(1)</script>', buttonText: 'red;background:url(https://evil.example)' } });
		await requestLink(s.client(), 'ann@example.com', { callbackUrl: '/"><img src=x onerror=alert(1)>' });
		const { message, link } = lastMessageTo(w, 'ann@example.com');
		const html = String(message.html);
		expect(html).not.toContain('<script');
		expect(html).not.toContain('evil.example');
		expect(html).not.toContain('<img');
		expect(html).not.toContain('ann@example.com');
		expect([...html.matchAll(/<a /g)]).toHaveLength(1);
		expect(html).toContain(`href="${link.href.replaceAll('&', '&amp;')}"`);
		expect(message.text).toContain(link.href);
	});
});

describe('tokens', () => {
	test('a replayed link: the second use is refused (Verification), no session', async () => {
		const w = await world();
		const s = emailSetup(w);
		await requestLink(s.client(), 'ann@example.com');
		const { link } = lastMessageTo(w, 'ann@example.com');
		expect(sessionCookiesSet((await followLink(s.client(), link)).signIn)).toEqual([SESSION_COOKIE]);
		const replay = await followLink(s.client(), link);
		await expectNoSessionGranted(replay.signIn);
		expect(location(replay.signIn).href).toBe(VERIFICATION);
	});

	test("a token with another address (CVE-2021-21310), a right address with a wrong token (CVE-2022-39263): refused, the real one survives", async () => {
		const w = await world();
		const s = emailSetup(w);
		await requestLink(s.client(), 'victim@example.com');
		await requestLink(s.client(), 'attacker@example.com');
		const victim = lastMessageTo(w, 'victim@example.com').link;
		const attacker = lastMessageTo(w, 'attacker@example.com').link;

		const swapped = new URL(attacker);
		swapped.searchParams.set('email', 'victim@example.com');
		const first = await followLink(s.client(), swapped);
		await expectNoSessionGranted(first.signIn);
		expect(location(first.signIn).href).toBe(VERIFICATION);

		const guessed = new URL(victim);
		guessed.searchParams.set('token', 'f'.repeat(64));
		const second = await followLink(s.client(), guessed);
		await expectNoSessionGranted(second.signIn);
		expect(location(second.signIn).href).toBe(VERIFICATION);

		const client = s.client();
		expect(sessionCookiesSet((await followLink(client, victim)).signIn)).toEqual([SESSION_COOKIE]);
		expect(((await client.session()) as Session).user?.email).toBe('victim@example.com');
	});

	test('an expired link is refused', async () => {
		const w = await world();
		const s = emailSetup(w);
		await requestLink(s.client(), 'ann@example.com');
		await w.store.db.execute(`UPDATE "verificationToken" SET "expires" = ${Date.now() - 1000}`);
		const { signIn } = await followLink(s.client(), lastMessageTo(w, 'ann@example.com').link);
		await expectNoSessionGranted(signIn);
		expect(location(signIn).href).toBe(VERIFICATION);
	});

	test('a link of one email provider is refused by another (bound to its provider)', async () => {
		const w = await world();
		const s = setup({
			adapter: w.store.adapter,
			providers: [Nodemailer({ server: w.mailbox.url, from: FROM }), Email({ server: w.mailbox.url, from: FROM })]
		});
		await requestLink(s.client(), 'ann@example.com');
		const link = lastMessageTo(w, 'ann@example.com').link;
		const elsewhere = new URL(link.href.replace(`/callback/${PROVIDER}`, '/callback/email'));
		const { signIn } = await followLink(s.client(), elsewhere);
		await expectNoSessionGranted(signIn);
		expect(location(signIn).href).toBe(VERIFICATION);
		// Still good where it belongs.
		expect(sessionCookiesSet((await followLink(s.client(), link)).signIn)).toEqual([SESSION_COOKIE]);
	});

	test('malformed links: no token, no address, oversized, arrays in JSON: Verification, never a 5xx', async () => {
		const w = await world();
		const s = emailSetup(w);
		const client = s.client();
		const queries: Record<string, string>[] = [{}, { token: 'abc' }, { email: 'ann@example.com' }, { token: 'x'.repeat(600), email: 'ann@example.com' }, { token: 'abc', email: 'a'.repeat(400) }];
		for (const query of queries) {
			const res = await client.get(`callback/${PROVIDER}`, { query });
			await expectNoSessionGranted(res);
			expect(location(res).href).toBe(VERIFICATION);
		}
		// A crafted link's values are shown as text, never as markup.
		const crafted = await client.get(`callback/${PROVIDER}`, { query: { token: 'abc', email: '<script>alert(1)</script>@x', callbackUrl: '"><img src=x>' } });
		expect(crafted.status).toBe(200);
		const html = await crafted.text();
		expect(html).not.toContain('<script>alert');
		expect(html).not.toContain('<img src=x>');
		expect(html).toContain('&lt;script>alert(1)&lt;/script>@x');
		const csrfToken = await client.csrfToken();
		for (const json of [{ token: ['a', 'b'], email: 'ann@example.com' }, { token: 'abc', email: { a: 1 } }, { token: null }]) {
			const res = await client.post(`callback/${PROVIDER}`, { json: { csrfToken, ...json } });
			await expectNoSessionGranted(res);
			expect(location(res).href).toBe(VERIFICATION);
		}
	});
});

describe('no token of another kind is a sign-in token, and no sign-in token anything else', () => {
	/** An OAuth provider whose start needs no network (explicit endpoints): for its state and PKCE values. */
	const oauth: OAuthConfig = {
		id: 'other-idp',
		name: 'Other IdP',
		type: 'oauth',
		clientId: 'client',
		clientSecret: 'secret',
		authorization: 'http://127.0.0.1:9/authorize',
		token: 'http://127.0.0.1:9/token',
		userinfo: 'http://127.0.0.1:9/userinfo',
		checks: ['pkce', 'state']
	};

	test('CSRF tokens, OAuth state and PKCE values, session tokens, codes and cookies as link tokens: Verification', async () => {
		const w = await world();
		const s = emailSetup(w, { code: true }, { providers: [Nodemailer({ server: w.mailbox.url, from: FROM, code: true }), oauth] });
		const client = s.client();
		// A real pending link for the address, so a lookup could find something.
		await requestLink(client, 'ann@example.com');
		const { code } = lastMessageTo(w, 'ann@example.com');
		const start = await client.postForm('signin/other-idp');
		const authorize = location(start);
		const signedIn = s.client();
		await followLink(signedIn, lastMessageTo(w, 'ann@example.com').link);
		await requestLink(client, 'ann@example.com');

		const csrf = client.cookie(CSRF_COOKIE)!;
		const candidates = [
			csrf.split('|')[0]!,
			csrf.split('|')[1]!,
			csrf,
			authorize.searchParams.get('state')!,
			authorize.searchParams.get('code_challenge')!,
			client.cookie('authjs.state')!,
			client.cookie('authjs.pkce.code_verifier')!,
			client.cookie('authjs.email-verification')!,
			signedIn.cookie(SESSION_COOKIE)!,
			code!
		];
		expect(candidates.every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
		for (const token of candidates) {
			const res = await client.postForm(`callback/${PROVIDER}`, { token, email: 'ann@example.com' });
			await expectNoSessionGranted(res);
			expect(location(res).href).toBe(VERIFICATION);
		}
	});

	test('a link token as a CSRF token, a session cookie, an OAuth state or check cookie: refused', async () => {
		const w = await world();
		const s = emailSetup(w, {}, { providers: [Nodemailer({ server: w.mailbox.url, from: FROM }), oauth] });
		const client = s.client();
		await requestLink(client, 'ann@example.com');
		const token = lastMessageTo(w, 'ann@example.com').link.searchParams.get('token')!;

		// As the body's CSRF token (with the browser's real cookie): refused.
		const signOut = await client.post('signout', { form: { csrfToken: token } });
		expect(location(signOut).searchParams.get('error')).toBe('MissingCSRF');
		// As a CSRF cookie of its own (`token|…`): not a cookie this server minted.
		const forged = new TestClient(s.handler);
		forged.setCookie(CSRF_COOKIE, `${token}|${token}`);
		const withForged = await forged.post(`signin/${PROVIDER}`, { form: { csrfToken: token, email: 'attacker@example.com' } });
		expect(location(withForged).searchParams.get('error')).toBe('MissingCSRF');
		// As a session cookie.
		const asSession = new TestClient(s.handler);
		asSession.setCookie(SESSION_COOKIE, token);
		expect(await asSession.session()).toBeNull();
		// As OAuth state (parameter and cookie) on that provider's callback.
		const asState = new TestClient(s.handler);
		asState.setCookie('authjs.state', token);
		asState.setCookie('authjs.pkce.code_verifier', token);
		const callback = await asState.get('callback/other-idp', { query: { code: 'x', state: token } });
		await expectNoSessionGranted(callback);
		expect(location(callback).searchParams.get('error')).toBe('OAuthCallbackError');
		// As a one-time code.
		const asCode = await client.postForm(`callback/${PROVIDER}`, { code: token });
		await expectNoSessionGranted(asCode);
		// The link itself is untouched by all of this.
		expect(sessionCookiesSet((await followLink(s.client(), lastMessageTo(w, 'ann@example.com').link)).signIn)).toEqual([SESSION_COOKIE]);
	});
});

describe('the confirmation step', () => {
	test('GET changes nothing (a scanner may fetch it any number of times); the POST signs in', async () => {
		const w = await world();
		const s = emailSetup(w);
		await requestLink(s.client(), 'ann@example.com');
		const { link } = lastMessageTo(w, 'ann@example.com');
		const scanner = s.client();
		for (let i = 0; i < 3; i++) {
			const res = await scanner.get(link.href);
			expect(res.status).toBe(200);
			expect(sessionCookiesSet(res)).toEqual([]);
			expect(res.headers.get('referrer-policy')).toBe('strict-origin');
			expect(res.headers.get('cache-control')).toBe('private, no-store');
			expect(res.headers.get('x-frame-options')).toBe('DENY');
		}
		expect(await w.tokens()).toHaveLength(1);
		expect(sessionCookiesSet((await followLink(s.client(), link)).signIn)).toEqual([SESSION_COOKIE]);
	});

	test('the POST without the CSRF token, or from another site, is refused and uses nothing up', async () => {
		const w = await world();
		const s = emailSetup(w);
		await requestLink(s.client(), 'ann@example.com');
		const { link } = lastMessageTo(w, 'ann@example.com');
		const page = await s.client().get(link.href);
		const fields = hiddenFields(await page.text());
		expect(fields).toMatchObject({ token: link.searchParams.get('token'), email: 'ann@example.com' });

		const attacker = s.client();
		const noToken = await attacker.post(`callback/${PROVIDER}`, { form: { token: fields.token!, email: fields.email! } });
		await expectNoSessionGranted(noToken);
		expect(location(noToken).searchParams.get('error')).toBe('MissingCSRF');
		const crossSite = await attacker.postForm(`callback/${PROVIDER}`, { token: fields.token!, email: fields.email! }, { headers: { origin: 'https://evil.example' } });
		expect(crossSite.status).toBe(403);
		expect(sessionCookiesSet(crossSite)).toEqual([]);
		expect(await w.tokens()).toHaveLength(1);
		expect(sessionCookiesSet((await followLink(s.client(), link)).signIn)).toEqual([SESSION_COOKIE]);
	});

	test('signed in as someone else, a link signs in as its address with a new session', async () => {
		const w = await world();
		const s = emailSetup(w);
		const client = s.client();
		await requestLink(client, 'first@example.com');
		await followLink(client, lastMessageTo(w, 'first@example.com').link);
		const before = client.cookie(SESSION_COOKIE);
		await requestLink(client, 'second@example.com');
		await followLink(client, lastMessageTo(w, 'second@example.com').link);
		expect(client.cookie(SESSION_COOKIE)).not.toBe(before);
		expect(((await client.session()) as Session).user?.email).toBe('second@example.com');
		expect((await w.store.sessions()).map((row) => row.userId)).toHaveLength(1);
	});
});

describe('links follow AUTH_URL, never a Host header', () => {
	test('a request to a forged host still gets a link to the configured origin', async () => {
		const w = await world();
		const s = emailSetup(w, {}, {});
		const server = createAuthServer(s.config, { env: { AUTH_URL: 'https://app.example' } });
		const forged = new TestClient(server.handle, { origin: 'http://evil.example' });
		const res = await requestLink(forged, 'ann@example.com');
		expect(location(res).origin).toBe('https://app.example');
		expect(lastMessageTo(w, 'ann@example.com').link.origin).toBe('https://app.example');
		expect(lastMessageTo(w, 'ann@example.com').message.subject).toBe('Sign in to app.example');
	});
});

describe('a mail server that refuses, is unreachable or is slow', () => {
	async function expectFailedSend(w: EmailWorld, s: ReturnType<typeof emailSetup>) {
		const client = s.client();
		const res = await requestLink(client, 'ann@example.com');
		await expectNoSessionGranted(res);
		expect(location(res).href).toBe(EMAIL_SIGNIN);
		// A clear page: the sign-in page says what happened.
		const page = await (await client.get(location(res).href)).text();
		expect(page).toContain('The sign-in email could not be sent. Check the address and try again.');
		expect(await w.tokens()).toEqual([]);
		expect(s.errors.map((e) => e.name)).toEqual(['EmailSignInError']);
		return res;
	}

	test.each(['rcpt', 'data'] as const)('the server refuses at %s: EmailSignin, the token is deleted', async (refuse) => {
		const w = await world();
		w.mailbox.behaviour.refuse = refuse;
		await expectFailedSend(w, emailSetup(w, { code: true }));
		expect(w.mailbox.connections).toBe(1);
	});

	test('nothing listens: EmailSignin', async () => {
		const w = await world();
		await expectFailedSend(w, emailSetup(w, { server: `smtp://127.0.0.1:${await closedPort()}` }));
	});

	test('a server that never greets: the wait is bounded, and nodemailer lets go of the socket', async () => {
		const w = await world();
		const silent = await startSilentServer();
		cleanups.push(silent.close);
		await expectFailedSend(w, emailSetup(w, { server: silent.url, timeout: 500 }));
		// The transport's own timeouts are bounded by the provider's: it closes the connection
		// itself (nodemailer's default would wait 30 s for a greeting).
		await expect.poll(() => silent.open(), { timeout: 5000 }).toBe(0);
		expect(silent.accepted()).toBe(1);
	});

	test.each([
		['greeting', { greetingDelay: 5000 }],
		['message', { dataDelay: 5000 }]
	] as const)('a server slow to accept the %s: EmailSignin after the provider timeout', async (_name, behaviour) => {
		const w = await world();
		w.mailbox.behaviour = { ...behaviour };
		await expectFailedSend(w, emailSetup(w, { timeout: 400 }));
	});

	test('a sender that never settles: EmailSignin after the timeout, no token', async () => {
		const w = await world();
		const s = emailSetup(w, { server: undefined, timeout: 300, sendVerificationRequest: () => new Promise(() => {}) });
		await expectFailedSend(w, s);
	});
});

describe('secrets stay out of the logs', () => {
	test('a sender whose error quotes the link: the logged error does not', async () => {
		const w = await world();
		let sent = '';
		const s = emailSetup(w, {
			server: undefined,
			code: true,
			sendVerificationRequest: ({ url, token, code }) => {
				sent = `${url} ${token} ${code}`;
				throw new Error(`could not send ${url} (token ${token}, code ${code})`, { cause: new Error(`inner ${token}`) });
			}
		});
		const res = await requestLink(s.client(), 'ann@example.com');
		expect(location(res).href).toBe(EMAIL_SIGNIN);
		const [url, token, code] = sent.split(' ') as [string, string, string];
		const text = logged(s.errors);
		expect(text).toContain('could not send');
		expect(text).toContain('[redacted]');
		for (const secret of [url, token, code]) expect(text).not.toContain(secret);
	});

	test('a whole sign-in with debug logging on: no token, code or link in any log line', async () => {
		const w = await world();
		const lines: string[] = [];
		const s = emailSetup(w, { code: true }, {
			debug: true,
			logger: { error: (e) => void lines.push(formatError(e)), warn: (c) => void lines.push(c), debug: (m, meta) => void lines.push(`${m} ${JSON.stringify(meta ?? '')}`) }
		});
		const client = s.client();
		await requestLink(client, 'ann@example.com');
		const { link, code } = lastMessageTo(w, 'ann@example.com');
		await followLink(client, link);
		const token = link.searchParams.get('token')!;
		expect(lines.length).toBeGreaterThan(0);
		for (const line of lines) {
			expect(line).not.toContain(token);
			expect(line).not.toContain(code!);
		}
	});
});

describe('the rate limiter (email-request, email-code)', () => {
	/** The email app on the server API, requests from `address`, with a clock the test moves. */
	async function limited(w: EmailWorld, provider: Parameters<typeof Nodemailer>[0] = {}, rules: RateLimitConfig['rules'] = {}) {
		let now = Date.UTC(2026, 10, 24, 12);
		const s = emailSetup(w, provider, { rateLimit: { now: () => now, rules } });
		const server = createAuthServer(s.config, { env: {} });
		return {
			client: (address = '203.0.113.7') => new TestClient((request) => server.handle(request, { clientAddress: address }), { origin: ORIGIN }),
			later: (seconds: number) => void (now += seconds * 1000)
		};
	}

	test('per client address: the 6th request in 15 minutes is refused (429), nothing sent or stored for it', async () => {
		const w = await world();
		const { client, later } = await limited(w);
		const browser = client();
		for (let i = 1; i <= 5; i++) expectVerifyRequest(await requestLink(browser, `user${i}@example.com`), ORIGIN);
		const refused = await requestLink(browser, 'user6@example.com');
		expect(refused.status).toBe(429);
		await expectNoSessionGranted(refused);
		expect(w.mailbox.to('user6@example.com')).toEqual([]);
		expect((await w.tokens()).map((t) => t.identifier)).not.toContain('user6@example.com');
		expectVerifyRequest(await requestLink(client('198.51.100.9'), 'user6@example.com'), ORIGIN);
		later(15 * 60 + 1);
		expectVerifyRequest(await requestLink(browser, 'user7@example.com'), ORIGIN);
	});

	test('per recipient, from any address: a few at once, then minutes apart (no mail-bombing); known or not alike', async () => {
		const w = await world();
		await w.store.adapter.createUser({ id: 'user-known', email: 'known@example.com', emailVerified: null });
		const { client, later } = await limited(w);
		for (const victim of ['known@example.com', 'unknown@example.com']) {
			for (let i = 1; i <= 3; i++) expectVerifyRequest(await requestLink(client(`192.0.2.${i}`), victim), ORIGIN);
			expect((await requestLink(client('192.0.2.4'), victim)).status).toBe(429);
			expect(w.mailbox.to(victim)).toHaveLength(3);
		}
		later(31);
		expectVerifyRequest(await requestLink(client('192.0.2.5'), 'known@example.com'), ORIGIN);
	});

	test('code guesses are counted per client address across links (email-code)', async () => {
		const w = await world();
		// The default budget (100 wrong codes per 10 minutes) is sized for a shared address; ten here.
		const { client } = await limited(w, { code: true }, { 'email-code': { address: { limit: 10 } } });
		const browser = client();
		let refused: Response | undefined;
		// Two links (5 tickets each) from one address: the address budget ends first.
		for (let link = 0; link < 3 && !refused; link++) {
			await requestLink(browser, `guess${link}@example.com`);
			for (let i = 0; i < 5; i++) {
				const res = await browser.postForm(`callback/${PROVIDER}`, { code: '00000000' });
				if (res.status === 429) {
					refused = res;
					break;
				}
			}
		}
		expect(refused?.status).toBe(429);
		await expectNoSessionGranted(refused!);
	});

	test('a right code signs in without using the address budget, and gives the browser a device cookie for the address', async () => {
		const w = await world();
		const { client } = await limited(w, { code: true }, { 'email-code': { address: { limit: 1 } } });
		const browser = client();
		for (const person of ['ann@example.com', 'bob@example.com', 'cy@example.com']) {
			await requestLink(browser, person);
			const res = await browser.postForm(`callback/${PROVIDER}`, { code: lastMessageTo(w, person).code! });
			expect(sessionCookiesSet(res), person).toHaveLength(1);
		}
		// Three accounts' entries, the newest first; the cookie names none of them.
		const device = browser.cookie('authjs.device')!;
		expect(device.split('~')).toHaveLength(3);
		expect(device).not.toMatch(/example/);
	});
});
