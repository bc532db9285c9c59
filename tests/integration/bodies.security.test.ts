/**
 * Hostile request bodies on every POST action: malformed and non-object JSON, oversized bodies of
 * every content type (1 MB → 413), too deep (over 16 levels) or with too many fields (over 256):
 * 400 where the body is read, wrong content types, multipart, pollution attempts. Every request
 * must be answered, never with a 500, never with a session, never as a configuration error.
 */
import { describe, expect, test } from 'vitest';
import type { TestClient } from '../support/client.js';
import { ALICE, ALICE_LOGIN, ORIGIN, SESSION_COOKIE, expectNoSessionGranted, sessionCookiesSet, setup } from './fixtures.js';

const POST_ACTIONS = ['signin', 'signout', 'session', 'callback/credentials'] as const;
const MB = 1024 * 1024;

/** A client holding a valid CSRF cookie, and its token. */
async function withCsrf(): Promise<{ client: TestClient; csrfToken: string }> {
	const client = setup().client();
	const csrfToken = await client.csrfToken();
	return { client, csrfToken };
}

/** A body that is refused for its content: 302 MissingCSRF for forms, 400 `null` for session. */
async function expectRefusedWithoutCsrf(res: Response, action: string): Promise<void> {
	if (action === 'session') {
		expect(res.status).toBe(400);
		expect(await res.json()).toBeNull();
	} else {
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
		await expectNoSessionGranted(res);
	}
}

/** Refused where the body is read: a plain-text 400 saying why, no session. */
async function expectBadRequest(res: Response, reason: RegExp): Promise<void> {
	expect(res.status).toBe(400);
	expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
	expect(res.headers.get('location')).toBeNull();
	expect(await expectNoSessionGranted(res)).toMatch(reason);
}

function multipart(fields: Record<string, string>): FormData {
	const data = new FormData();
	for (const [name, value] of Object.entries(fields)) data.append(name, value);
	return data;
}

function endlessStream(chunk: Uint8Array): ReadableStream<Uint8Array> {
	return new ReadableStream({
		pull(controller) {
			controller.enqueue(chunk);
		}
	});
}

describe.each(POST_ACTIONS)('POST %s', (action) => {
	test.each([
		['malformed JSON', '{"csrfToken":'],
		['a JSON array', '["csrfToken"]'],
		['a JSON string', '"csrfToken"'],
		['JSON null', 'null'],
		['a JSON number', '42'],
		['trailing garbage', '{"a":1} x'],
		['a lone surrogate escape', '{"a":"\\ud800"']
	])('%s → 4xx, no session', async (_name, body) => {
		const { client } = await withCsrf();
		const res = await client.post(action, { body, headers: { 'content-type': 'application/json' } });
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(res.status).toBeLessThan(500);
		await expectNoSessionGranted(res);
	});

	test('deeply nested JSON (10 000 levels) without a token → 400 where the body is read', async () => {
		const { client } = await withCsrf();
		const body = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
		const res = await client.post(action, { body, headers: { 'content-type': 'application/json' } });
		await expectBadRequest(res, /nested more than 16 levels/);
	});

	test.each([
		['objects', (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
		['arrays', (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`]
	])('JSON with a valid token and a field nested 5 000 levels deep (%s) → 400, nothing blamed on the configuration', async (_shape, nest) => {
		const s = setup();
		const client = s.client();
		const csrfToken = await client.csrfToken();
		const body = `{"csrfToken":"${csrfToken}","username":"alice","password":"wonderland","extra":${nest(5000)}}`;
		const res = await client.post(action, { body, headers: { 'content-type': 'application/json' } });
		await expectBadRequest(res, /nested more than 16 levels/);
		expect(s.errors.map((e) => e.name)).toEqual([]);
	});

	test('JSON nested 16 levels (the bound) is read', async () => {
		const s = setup();
		const client = s.client();
		const csrfToken = await client.csrfToken();
		// The body is the first level; `extra` opens 15 more.
		const body = `{"csrfToken":"${csrfToken}","username":"alice","password":"wonderland","extra":${'['.repeat(15)}1${']'.repeat(15)}}`;
		const res = await client.post(action, { body, headers: { 'content-type': 'application/json' } });
		expect(res.status).toBeLessThan(400);
		expect(s.errors.map((e) => e.name)).toEqual([]);
	});

	test.each([
		['a form', (fields: Record<string, string>) => ({ form: fields })],
		['JSON', (fields: Record<string, string>) => ({ json: fields })],
		['multipart', (fields: Record<string, string>) => ({ body: multipart(fields) })]
	])('%s with 300 fields (over 256) and a valid token → 400', async (_kind, encode) => {
		const s = setup();
		const client = s.client();
		const csrfToken = await client.csrfToken();
		const fields: Record<string, string> = { csrfToken, ...ALICE_LOGIN };
		for (let i = 0; i < 300; i++) fields[`f${i}`] = 'x';
		const res = await client.post(action, encode(fields));
		await expectBadRequest(res, /more than 256 fields/);
		expect(s.errors).toEqual([]);
	});

	test('a JSON array of 20 000 members inside the body → 400', async () => {
		const { client, csrfToken } = await withCsrf();
		const body = `{"csrfToken":"${csrfToken}","many":[${Array(20_000).fill('0').join(',')}]}`;
		const res = await client.post(action, { body, headers: { 'content-type': 'application/json' } });
		await expectBadRequest(res, /more than 256 fields/);
	});

	test('malformed JSON answers 400 with a plain message', async () => {
		const { client } = await withCsrf();
		const res = await client.post(action, { body: '{', headers: { 'content-type': 'application/json' } });
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		expect(await res.text()).toMatch(/^Bad request/);
	});

	test('1 MB form body → 413', async () => {
		const { client, csrfToken } = await withCsrf();
		const res = await client.post(action, { form: { csrfToken, ...ALICE_LOGIN, filler: 'x'.repeat(MB) } });
		expect(res.status).toBe(413);
		await expectNoSessionGranted(res);
	});

	test('1 MB form body announced by Content-Length → 413', async () => {
		const { client, csrfToken } = await withCsrf();
		const body = new URLSearchParams({ csrfToken, ...ALICE_LOGIN, filler: 'x'.repeat(MB) }).toString();
		const res = await client.post(action, {
			body,
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) }
		});
		expect(res.status).toBe(413);
	});

	test('a 1 MB form body behind a lying Content-Length (10) → 413', async () => {
		const { client, csrfToken } = await withCsrf();
		const body = new URLSearchParams({ csrfToken, ...ALICE_LOGIN, filler: 'x'.repeat(MB) }).toString();
		const res = await client.post(action, {
			body,
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '10' }
		});
		expect(res.status).toBe(413);
	});

	test('1 MB JSON body → 413', async () => {
		const { client, csrfToken } = await withCsrf();
		const res = await client.post(action, { json: { csrfToken, ...ALICE_LOGIN, filler: 'x'.repeat(MB) } });
		expect(res.status).toBe(413);
		await expectNoSessionGranted(res);
	});

	test('an endless JSON stream is cut off with 413 (never a hang)', async () => {
		const { client } = await withCsrf();
		// Node needs `duplex: 'half'` for a stream body; the DOM RequestInit type does not know it.
		const init: RequestInit & { duplex: 'half' } = {
			method: 'POST',
			headers: { cookie: client.cookieHeader(), origin: ORIGIN, 'content-type': 'application/json' },
			body: endlessStream(new TextEncoder().encode(' '.repeat(16 * 1024))),
			duplex: 'half'
		};
		const res = await client.handler(new Request(client.url(action), init));
		expect(res.status).toBe(413);
	});

	test('1 MB multipart body → 413', async () => {
		const { client, csrfToken } = await withCsrf();
		const res = await client.post(action, { body: multipart({ csrfToken, ...ALICE_LOGIN, filler: 'x'.repeat(MB) }) });
		expect(res.status).toBe(413);
		await expectNoSessionGranted(res);
	});

	test('a malformed multipart body → 4xx', async () => {
		const { client } = await withCsrf();
		const res = await client.post(action, {
			body: '--nope\r\ngarbage',
			headers: { 'content-type': 'multipart/form-data; boundary=other', 'content-length': '16' }
		});
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(res.status).toBeLessThan(500);
	});

	test.each(['text/plain', 'application/xml', 'application/json-patch+json', 'application/octet-stream', ''])(
		'content type "%s" carrying a valid token is not read: refused as without CSRF',
		async (type) => {
			const { client, csrfToken } = await withCsrf();
			const body = new URLSearchParams({ csrfToken, ...ALICE_LOGIN }).toString();
			const res = await client.post(action, { body: new TextEncoder().encode(body), headers: type ? { 'content-type': type } : {} });
			await expectRefusedWithoutCsrf(res, action);
		}
	);

	test('invalid UTF-8 in a form body: no 500, no session', async () => {
		const { client } = await withCsrf();
		const res = await client.post(action, {
			body: new Uint8Array([0x63, 0x73, 0x72, 0x66, 0x3d, 0xff, 0xfe, 0xc3, 0x28, 0x26, 0xed, 0xa0, 0x80]),
			headers: { 'content-type': 'application/x-www-form-urlencoded' }
		});
		await expectRefusedWithoutCsrf(res, action);
	});

	test('a non-string csrfToken in JSON is refused', async () => {
		const { client, csrfToken } = await withCsrf();
		for (const value of [[csrfToken], { csrfToken }, 1, true, null]) {
			const res = await client.post(action, { json: { csrfToken: value, ...ALICE_LOGIN } });
			await expectRefusedWithoutCsrf(res, action);
		}
	});

	test('a duplicated csrfToken field: the first (wrong) one counts', async () => {
		const { client, csrfToken } = await withCsrf();
		const res = await client.post(action, {
			body: `csrfToken=wrong&csrfToken=${csrfToken}&username=alice&password=wonderland`,
			headers: { 'content-type': 'application/x-www-form-urlencoded' }
		});
		await expectRefusedWithoutCsrf(res, action);
	});
});

describe('multipart size is counted, not taken from Content-Length', () => {
	test('POST callback/credentials: a 1 MB multipart body behind a lying Content-Length (100) → 413', async () => {
		const { client, csrfToken } = await withCsrf();
		const boundary = 'kitauthboundary';
		const body =
			`--${boundary}\r\nContent-Disposition: form-data; name="csrfToken"\r\n\r\n${csrfToken}\r\n` +
			`--${boundary}\r\nContent-Disposition: form-data; name="filler"\r\n\r\n${'x'.repeat(MB)}\r\n--${boundary}--\r\n`;
		const res = await client.post('callback/credentials', {
			body,
			headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '100' }
		});
		expect(res.status).toBe(413);
	});
});

describe('bodies that are legitimate', () => {
	test('a small multipart form signs in', async () => {
		const { client, csrfToken } = await withCsrf();
		const res = await client.post('callback/credentials', { body: multipart({ csrfToken, ...ALICE_LOGIN, callbackUrl: '/mp' }) });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/mp`);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
	});

	test('a JSON body with a charset parameter signs in', async () => {
		const { client, csrfToken } = await withCsrf();
		const res = await client.post('callback/credentials', {
			body: JSON.stringify({ csrfToken, ...ALICE_LOGIN }),
			headers: { 'content-type': 'Application/JSON; charset=utf-8' }
		});
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
	});
});

describe('pollution attempts', () => {
	test('__proto__ and constructor keys in JSON neither pollute nor break the sign-in', async () => {
		const { client, csrfToken } = await withCsrf();
		const body = `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"csrfToken":"${csrfToken}","username":"alice","password":"wonderland"}`;
		const res = await client.post('callback/credentials', { body, headers: { 'content-type': 'application/json' } });
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty('polluted');
		expect(await client.session()).toMatchObject({ user: { email: ALICE.email } });
	});

	test('__proto__ in a form and in the query neither pollutes nor breaks anything', async () => {
		const { client, csrfToken } = await withCsrf();
		const res = await client.post('callback/credentials', {
			form: { csrfToken, ...ALICE_LOGIN, '__proto__[polluted]': 'yes', ['__proto__']: 'x' },
			query: { ['__proto__']: 'q', 'constructor[prototype][polluted]': 'yes' }
		});
		expect(res.status).toBe(302);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	test('a JSON csrfToken smuggled through __proto__ is not accepted', async () => {
		const { client, csrfToken } = await withCsrf();
		const body = `{"__proto__":{"csrfToken":"${csrfToken}"},"username":"alice","password":"wonderland"}`;
		const res = await client.post('callback/credentials', { body, headers: { 'content-type': 'application/json' } });
		await expectRefusedWithoutCsrf(res, 'callback/credentials');
	});
});
