/**
 * One-time codes (`code: true`): the code in the message, typed on the verify-request page of the
 * browser that asked, is the link's own secret (using one uses the other up), allows 5 attempts
 * per link whatever the client does (replayed cookies, parallel requests), and works nowhere else.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { Session } from '../../src/lib/core/types.js';
import type { LibSQLAdapterInstance } from '../../src/lib/adapters/libsql/index.js';
import type { TestClient } from '../support/client.js';
import { ORIGIN, SESSION_COOKIE, location, sessionCookiesSet } from './fixtures.js';
import { emailSetup, followLink, hiddenFields, lastMessageTo, openEmailWorld, PROVIDER, requestLink, type EmailWorld } from './email-fixtures.js';

const CODE_COOKIE = 'authjs.email-verification';

const worlds: EmailWorld[] = [];
afterEach(async () => {
	while (worlds.length) await worlds.pop()!.close();
});

/** A world whose adapter counts the attempt tickets the core manages to consume. */
async function codeWorld() {
	const w = await openEmailWorld();
	worlds.push(w);
	const counted = { tickets: 0 };
	const real = w.store.adapter;
	const adapter: LibSQLAdapterInstance = {
		...real,
		useVerificationToken: async (params) => {
			const row = await real.useVerificationToken(params);
			if (row && params.identifier.startsWith('kitauth:email-code:')) counted.tickets++;
			return row;
		}
	};
	const s = emailSetup(w, { code: true }, { adapter });
	return { w, s, counted };
}

/** Types a code on the verify-request page: reads the page's form, posts it. */
async function enterCode(client: TestClient, code: string): Promise<Response> {
	const page = await client.get('verify-request', { query: { provider: PROVIDER, type: 'email' } });
	const fields = hiddenFields(await page.text());
	return client.post(`callback/${PROVIDER}`, { form: { csrfToken: fields.csrfToken ?? (await client.csrfToken()), code } });
}

function codeError(res: Response): string | null {
	expect(res.status).toBe(302);
	const url = location(res);
	expect(url.pathname).toBe('/auth/verify-request');
	return url.searchParams.get('codeError');
}

function wrongCode(code: string): string {
	return String((Number(code) + 1) % 100_000_000).padStart(8, '0');
}

describe('one-time codes', () => {
	test('the message carries a code; typed in the asking browser it signs in and uses the link up', async () => {
		const { w, s } = await codeWorld();
		const client = s.client();
		await requestLink(client, 'ann@example.com', { callbackUrl: '/after' });
		const { code, link } = lastMessageTo(w, 'ann@example.com');
		expect(code).toMatch(/^\d{8}$/);
		expect(lastMessageTo(w, 'ann@example.com').message.html).toContain(`${code!.slice(0, 4)} ${code!.slice(4)}`);

		const page = await (await client.get('verify-request', { query: { provider: PROVIDER, type: 'email' } })).text();
		expect(page).toContain('ann@example.com');
		expect(page).toMatch(/<input[^>]*name="code"/);
		// Another browser sees the plain page: no address, no code field.
		const elsewhere = await (await s.client().get('verify-request', { query: { provider: PROVIDER, type: 'email' } })).text();
		expect(elsewhere).not.toContain('ann@example.com');
		expect(elsewhere).not.toMatch(/name="code"/);

		const res = await enterCode(client, `${code!.slice(0, 4)} ${code!.slice(4)}`);
		expect(res.status).toBe(302);
		expect(location(res).href).toBe(`${ORIGIN}/after`);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(client.cookie(CODE_COOKIE)).toBeUndefined();
		expect(((await client.session()) as Session).user?.email).toBe('ann@example.com');
		expect(await w.tokens()).toEqual([]);

		// One secret, used once: the link is spent too.
		const { signIn } = await followLink(s.client(), link);
		expect(location(signIn).searchParams.get('error')).toBe('Verification');
	});

	test('a wrong code is refused with the attempts left; after 5, even the right one is', async () => {
		const { w, s, counted } = await codeWorld();
		const client = s.client();
		await requestLink(client, 'bo@example.com');
		const { code, link } = lastMessageTo(w, 'bo@example.com');
		for (let attempt = 1; attempt <= 4; attempt++) {
			expect(codeError(await enterCode(client, wrongCode(code!)))).toBe('wrong');
			const page = await (await client.get('verify-request', { query: { provider: PROVIDER, type: 'email', codeError: 'wrong' } })).text();
			expect(page).toContain(`${5 - attempt} ${5 - attempt === 1 ? 'attempt' : 'attempts'} left`);
		}
		expect(codeError(await enterCode(client, wrongCode(code!)))).toBe('spent');
		expect(client.cookie(CODE_COOKIE)).toBeUndefined();
		const res = await enterCode(client, code!);
		expect(codeError(res)).toBe('spent');
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(counted.tickets).toBe(5);
		// The link itself still works.
		const { signIn } = await followLink(s.client(), link);
		expect(sessionCookiesSet(signIn)).toEqual([SESSION_COOKIE]);
	});

	test('replaying the first cookie does not refill the attempts', async () => {
		const { w, s, counted } = await codeWorld();
		const client = s.client();
		await requestLink(client, 'cy@example.com');
		const { code } = lastMessageTo(w, 'cy@example.com');
		const first = client.jar.get(CODE_COOKIE)!;
		for (let attempt = 0; attempt < 5; attempt++) {
			client.jar.set(CODE_COOKIE, first);
			await enterCode(client, wrongCode(code!));
		}
		client.jar.set(CODE_COOKIE, first);
		const res = await enterCode(client, code!);
		expect(codeError(res)).toBe('spent');
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(counted.tickets).toBe(5);
	});

	test('parallel guesses share one budget: at most 5 codes are ever compared', async () => {
		const { w, s, counted } = await codeWorld();
		const client = s.client();
		await requestLink(client, 'di@example.com');
		const { code } = lastMessageTo(w, 'di@example.com');
		const csrfToken = await client.csrfToken();
		const cookie = client.cookieHeader();
		const guess = () =>
			s.handler(
				new Request(`${ORIGIN}/auth/callback/${PROVIDER}`, {
					method: 'POST',
					headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
					body: new URLSearchParams({ csrfToken, code: wrongCode(code!) })
				})
			);
		const answers = await Promise.all(Array.from({ length: 20 }, guess));
		expect(answers.every((res) => res.status === 302)).toBe(true);
		// Sequential retries with the same (old) cookie afterwards, the right code last.
		for (let i = 0; i < 5; i++) await guess();
		const res = await s.handler(
			new Request(`${ORIGIN}/auth/callback/${PROVIDER}`, {
				method: 'POST',
				headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ csrfToken, code: code! })
			})
		);
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(counted.tickets).toBe(5);
	});

	test('a code works only in the browser that asked, and only for its own link', async () => {
		const { w, s } = await codeWorld();
		const asking = s.client();
		await requestLink(asking, 'eve@example.com');
		const first = lastMessageTo(w, 'eve@example.com').code!;
		// Another browser, even with the right code: nothing to compare it with.
		const other = s.client();
		const res = await other.postForm(`callback/${PROVIDER}`, { code: first });
		expect(codeError(res)).toBe('spent');
		expect(sessionCookiesSet(res)).toEqual([]);
		// A second request: its cookie replaces the first, whose code no longer fits.
		await requestLink(asking, 'eve@example.com');
		const second = lastMessageTo(w, 'eve@example.com').code!;
		expect(second).not.toBe(first);
		expect(codeError(await enterCode(asking, first))).toBe('wrong');
		const ok = await enterCode(asking, second);
		expect(sessionCookiesSet(ok)).toEqual([SESSION_COOKIE]);
	});

	test('a code whose link was followed already is refused (Verification)', async () => {
		const { w, s } = await codeWorld();
		const client = s.client();
		await requestLink(client, 'fay@example.com');
		const { code, link } = lastMessageTo(w, 'fay@example.com');
		await followLink(s.client(), link);
		const res = await enterCode(client, code!);
		expect(location(res).href).toBe(`${ORIGIN}/auth/error?error=Verification`);
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test('an expired code is refused: its lifetime is kept in the store, not only in the cookie', async () => {
		const { w, s } = await codeWorld();
		const client = s.client();
		await requestLink(client, 'gu@example.com');
		const { code } = lastMessageTo(w, 'gu@example.com');
		await w.store.db.execute(`UPDATE "verificationToken" SET "expires" = ${Date.now() - 1000} WHERE "identifier" LIKE 'kitauth:%'`);
		const res = await enterCode(client, code!);
		expect(codeError(res)).toBe('spent');
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test('what is not a code costs no attempt', async () => {
		const { w, s, counted } = await codeWorld();
		const client = s.client();
		await requestLink(client, 'hal@example.com');
		for (const value of ['', 'abcdefgh', '1234567', '123456789', '1234567٨']) {
			expect(codeError(await enterCode(client, value))).toBe('wrong');
		}
		expect(counted.tickets).toBe(0);
		const res = await enterCode(client, lastMessageTo(w, 'hal@example.com').code!);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
	});

	test('without code: true there is no code, no cookie and no field', async () => {
		const w = await openEmailWorld();
		worlds.push(w);
		const s = emailSetup(w);
		const client = s.client();
		const res = await requestLink(client, 'ida@example.com');
		expect(res.headers.getSetCookie().some((c) => c.startsWith(CODE_COOKIE))).toBe(false);
		expect(lastMessageTo(w, 'ida@example.com').code).toBeUndefined();
		expect(await (await client.get('verify-request', { query: { provider: PROVIDER, type: 'email' } })).text()).not.toMatch(/name="code"/);
		expect(codeError(await client.postForm(`callback/${PROVIDER}`, { code: '12345678' }))).toBe('spent');
		expect((await w.tokens()).map((t) => t.identifier)).toEqual(['ida@example.com']);
	});
});
