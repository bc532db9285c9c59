import { describe, expect, it } from 'vitest';
import { InvalidRequest, UnknownAction } from '../../src/lib/core/errors.js';
import { isAuthAction } from '../../src/lib/core/index.js';
import {
	MAX_BODY_BYTES,
	parseActionAndProviderId,
	readBody,
	toInternalRequest
} from '../../src/lib/core/request.js';

const ORIGIN = 'http://localhost:5173';
const LIMIT = 64 * 1024;

/** A body the runtime cannot size up front: no content-length, chunked like a real upload. */
function streamOf(text: string, chunkSize = 8192): ReadableStream<Uint8Array> {
	const bytes = new TextEncoder().encode(text);
	let offset = 0;
	return new ReadableStream<Uint8Array>({
		pull(controller) {
			if (offset >= bytes.length) {
				controller.close();
				return;
			}
			controller.enqueue(bytes.slice(offset, offset + chunkSize));
			offset += chunkSize;
		}
	});
}

function post(path: string, body: BodyInit | null, headers: Record<string, string> = {}): Request {
	const init: RequestInit & { duplex?: 'half' } = { method: 'POST', body, headers };
	if (body instanceof ReadableStream) init.duplex = 'half';
	return new Request(`${ORIGIN}${path}`, init);
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
	try {
		await promise;
	} catch (error) {
		return error;
	}
	throw new Error('expected a rejection');
}

async function expectInvalid(promise: Promise<unknown>, status: number): Promise<void> {
	const error = await caught(promise);
	expect(error).toBeInstanceOf(InvalidRequest);
	expect(error instanceof InvalidRequest ? error.status : undefined).toBe(status);
	expect(error instanceof InvalidRequest ? error.type : undefined).toBe('InvalidRequest');
}

function multipart(fields: Record<string, string>, file?: { name: string; content: string }): { body: string; type: string } {
	const boundary = '----kitauthTestBoundary7MA4YWxkTrZu0gW';
	let body = '';
	for (const [name, value] of Object.entries(fields)) {
		body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
	}
	if (file) {
		body += `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\n${file.content}\r\n`;
	}
	body += `--${boundary}--\r\n`;
	return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe('isAuthAction', () => {
	it('knows the thirteen actions and nothing else', () => {
		const actions = ['callback', 'csrf', 'error', 'forgot-password', 'providers', 'reset-password', 'session', 'signin', 'signout', 'signup', 'verify-email', 'verify-request', 'webauthn-options'];
		for (const action of actions) {
			expect(isAuthAction(action), action).toBe(true);
		}
		for (const other of ['', 'SESSION', 'register', 'toString', '__proto__', 'constructor']) {
			expect(isAuthAction(other), other).toBe(false);
		}
	});
});

describe('parseActionAndProviderId', () => {
	it('parses an action', () => {
		expect(parseActionAndProviderId('/auth/session', '/auth')).toEqual({ action: 'session' });
		expect(parseActionAndProviderId('/auth/verify-request', '/auth')).toEqual({ action: 'verify-request' });
	});

	it('parses a provider id on signin, callback and webauthn-options', () => {
		expect(parseActionAndProviderId('/auth/signin/github', '/auth')).toEqual({ action: 'signin', providerId: 'github' });
		expect(parseActionAndProviderId('/auth/callback/my-idp', '/auth')).toEqual({ action: 'callback', providerId: 'my-idp' });
		expect(parseActionAndProviderId('/auth/webauthn-options/passkey', '/auth')).toEqual({
			action: 'webauthn-options',
			providerId: 'passkey'
		});
	});

	it('tolerates trailing and duplicate slashes', () => {
		expect(parseActionAndProviderId('/auth/session/', '/auth')).toEqual({ action: 'session' });
		expect(parseActionAndProviderId('/auth//signin//github//', '/auth')).toEqual({ action: 'signin', providerId: 'github' });
		expect(parseActionAndProviderId('/auth///csrf', '/auth')).toEqual({ action: 'csrf' });
	});

	it('percent-decodes the provider id', () => {
		expect(parseActionAndProviderId('/auth/callback/my%20idp', '/auth')).toEqual({ action: 'callback', providerId: 'my idp' });
	});

	it.each([
		['more than two segments', '/auth/signin/github/extra'],
		['unknown action', '/auth/nope'],
		['action in another case', '/auth/Session'],
		['no action', '/auth'],
		['no action, trailing slash', '/auth/'],
		['provider id on session', '/auth/session/github'],
		['provider id on csrf', '/auth/csrf/x'],
		['provider id on signout', '/auth/signout/github'],
		['provider id on providers', '/auth/providers/github'],
		['bad percent-encoding', '/auth/callback/%E0%A4%A'],
		['lone %', '/auth/signin/%'],
		['outside the base path', '/other/session'],
		['base path as a prefix of another segment', '/authx/session'],
		['root', '/'],
		['prototype key as action', '/auth/__proto__'],
		['prototype key as action (toString)', '/auth/toString']
	])('%s → UnknownAction', (_name, path) => {
		expect(() => parseActionAndProviderId(path, '/auth')).toThrow(UnknownAction);
	});

	it('throws errors whose type is UnknownAction', () => {
		try {
			parseActionAndProviderId('/auth/nope', '/auth');
			expect.unreachable();
		} catch (error) {
			expect(error instanceof UnknownAction && error.type).toBe('UnknownAction');
		}
	});

	it('works with an empty base path', () => {
		expect(parseActionAndProviderId('/session', '')).toEqual({ action: 'session' });
		expect(parseActionAndProviderId('/signin/github', '')).toEqual({ action: 'signin', providerId: 'github' });
		expect(() => parseActionAndProviderId('/', '')).toThrow(UnknownAction);
		expect(() => parseActionAndProviderId('/a/b/c', '')).toThrow(UnknownAction);
	});

	it('works with a nested base path', () => {
		expect(parseActionAndProviderId('/app/api/auth/callback/google', '/app/api/auth')).toEqual({
			action: 'callback',
			providerId: 'google'
		});
		expect(() => parseActionAndProviderId('/app/api/session', '/app/api/auth')).toThrow(UnknownAction);
	});
});

describe('toInternalRequest', () => {
	it('parses a GET: action, provider, query (first values), cookies, empty body', async () => {
		const request = new Request(`${ORIGIN}/auth/signin/github?callbackUrl=%2Fx&a=1&a=2`, {
			headers: { cookie: 'authjs.csrf-token=abc%7Cdef; other=1' }
		});
		const internal = await toInternalRequest(request, '/auth');
		expect(internal.method).toBe('GET');
		expect(internal.action).toBe('signin');
		expect(internal.providerId).toBe('github');
		expect({ ...internal.query }).toEqual({ callbackUrl: '/x', a: '1' });
		expect(internal.cookies['authjs.csrf-token']).toBe('abc|def');
		expect(internal.body).toEqual({});
		expect(internal.url.href).toBe(request.url);
		expect(internal.request).toBe(request);
	});

	it('parses a form POST body (first value of each field)', async () => {
		const request = post('/auth/callback/credentials', 'email=a%40example.com&password=p%26w&csrfToken=t&email=second', {
			'content-type': 'application/x-www-form-urlencoded'
		});
		const internal = await toInternalRequest(request, '/auth');
		expect(internal.method).toBe('POST');
		expect({ ...internal.body }).toEqual({ email: 'a@example.com', password: 'p&w', csrfToken: 't' });
	});

	it('parses a JSON POST body, with a charset parameter and any case', async () => {
		const body = JSON.stringify({ csrfToken: 't', data: { name: 'N' } });
		for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
			const internal = await toInternalRequest(post('/auth/session', body, { 'content-type': type }), '/auth');
			expect({ ...internal.body }, type).toEqual({ csrfToken: 't', data: { name: 'N' } });
		}
	});

	it('an empty JSON body is an empty object', async () => {
		const internal = await toInternalRequest(post('/auth/session', '', { 'content-type': 'application/json' }), '/auth');
		expect(internal.body).toEqual({});
	});

	it.each([
		['malformed JSON', '{"csrfToken":'],
		['a JSON array', '[{"csrfToken":"t"}]'],
		['a JSON string', '"csrfToken"'],
		['a JSON number', '42'],
		['JSON null', 'null']
	])('%s → InvalidRequest 400', async (_name, body) => {
		await expectInvalid(toInternalRequest(post('/auth/session', body, { 'content-type': 'application/json' }), '/auth'), 400);
	});

	it('a JSON __proto__ key does not pollute prototypes', async () => {
		const body = '{"__proto__":{"polluted":true},"csrfToken":"t"}';
		const internal = await toInternalRequest(post('/auth/session', body, { 'content-type': 'application/json' }), '/auth');
		expect(internal.body.csrfToken).toBe('t');
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect((internal.body as { polluted?: unknown }).polluted).toBeUndefined();
	});

	it.each(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])('%s → UnknownAction', async (method) => {
		const request = new Request(`${ORIGIN}/auth/session`, { method });
		expect(await caught(toInternalRequest(request, '/auth'))).toBeInstanceOf(UnknownAction);
	});

	it('a path outside the base path → UnknownAction', async () => {
		expect(await caught(toInternalRequest(new Request(`${ORIGIN}/api/session`), '/auth'))).toBeInstanceOf(UnknownAction);
	});
});

describe('readBody: size limits', () => {
	it('the limit is 64 KiB', () => {
		expect(MAX_BODY_BYTES).toBe(LIMIT);
	});

	it('a form body of exactly 64 KiB is read', async () => {
		const value = 'a'.repeat(LIMIT - 2);
		const body = await readBody(post('/auth/signin', streamOf(`x=${value}`), { 'content-type': 'application/x-www-form-urlencoded' }));
		expect(body.x).toBe(value);
	});

	it('a form body over 64 KiB with content-length → 413 before reading it', async () => {
		const text = `x=${'a'.repeat(LIMIT)}`;
		await expectInvalid(
			readBody(
				post('/auth/signin', text, {
					'content-type': 'application/x-www-form-urlencoded',
					'content-length': String(text.length)
				})
			),
			413
		);
	});

	it('a JSON body over 64 KiB with content-length → 413', async () => {
		const text = JSON.stringify({ x: 'a'.repeat(LIMIT) });
		await expectInvalid(
			readBody(post('/auth/session', text, { 'content-type': 'application/json', 'content-length': String(text.length) })),
			413
		);
	});

	it('a form body over 64 KiB without content-length (stream) → 413', async () => {
		const request = post('/auth/signin', streamOf(`x=${'a'.repeat(LIMIT)}`), {
			'content-type': 'application/x-www-form-urlencoded'
		});
		expect(request.headers.get('content-length')).toBeNull();
		await expectInvalid(readBody(request), 413);
	});

	it('a JSON body over 64 KiB without content-length (stream) → 413', async () => {
		const request = post('/auth/session', streamOf(JSON.stringify({ x: 'a'.repeat(LIMIT) })), {
			'content-type': 'application/json'
		});
		await expectInvalid(readBody(request), 413);
	});

	it('a body larger than its (lying) content-length is still cut at 64 KiB', async () => {
		const request = post('/auth/session', streamOf(JSON.stringify({ x: 'a'.repeat(LIMIT * 2) })), {
			'content-type': 'application/json',
			'content-length': '10'
		});
		await expectInvalid(readBody(request), 413);
	});

	it('an endless stream is refused without reading it all', async () => {
		let pulled = 0;
		const endless = new ReadableStream<Uint8Array>({
			pull(controller) {
				pulled++;
				controller.enqueue(new Uint8Array(16 * 1024).fill(97));
			}
		});
		await expectInvalid(readBody(post('/auth/signin', endless, { 'content-type': 'application/x-www-form-urlencoded' })), 413);
		expect(pulled).toBeLessThan(100);
	});
});

describe('readBody: content types', () => {
	it('reads multipart text fields and drops file fields', async () => {
		const { body, type } = multipart({ providerId: 'github', csrfToken: 't' }, { name: 'upload', content: 'file content' });
		const parsed = await readBody(post('/auth/signin', body, { 'content-type': type, 'content-length': String(body.length) }));
		expect({ ...parsed }).toEqual({ providerId: 'github', csrfToken: 't' });
	});

	it('multipart over 64 KiB with content-length → 413', async () => {
		const { body, type } = multipart({ x: 'a'.repeat(LIMIT) });
		await expectInvalid(readBody(post('/auth/signin', body, { 'content-type': type, 'content-length': String(body.length) })), 413);
	});

	it('multipart over 64 KiB without content-length (stream) → 413', async () => {
		const { body, type } = multipart({ x: 'a'.repeat(LIMIT * 4) });
		const request = post('/auth/signin', streamOf(body), { 'content-type': type });
		expect(request.headers.get('content-length')).toBeNull();
		await expectInvalid(readBody(request), 413);
	});

	it('malformed multipart → InvalidRequest 400', async () => {
		const body = 'this is not multipart';
		await expectInvalid(
			readBody(
				post('/auth/signin', body, {
					'content-type': 'multipart/form-data; boundary=nope',
					'content-length': String(body.length)
				})
			),
			400
		);
	});

	it.each(['text/plain', 'application/xml', 'application/octet-stream', 'application/jsonp', 'x-www-form-urlencoded'])(
		'an unknown content type (%s) gives an empty body',
		async (type) => {
			const body = await readBody(post('/auth/signin', '{"csrfToken":"t"}', { 'content-type': type }));
			expect(body).toEqual({});
		}
	);

	it('no content type gives an empty body', async () => {
		const request = new Request(`${ORIGIN}/auth/signin`, { method: 'POST', body: new Uint8Array([123, 125]) });
		expect(request.headers.get('content-type')).toBeNull();
		expect(await readBody(request)).toEqual({});
	});

	it('invalid UTF-8 does not throw', async () => {
		const bytes = new Uint8Array([0x78, 0x3d, 0xff, 0xfe, 0x61]);
		const body = await readBody(
			new Request(`${ORIGIN}/auth/signin`, {
				method: 'POST',
				body: bytes,
				headers: { 'content-type': 'application/x-www-form-urlencoded' }
			})
		);
		expect(typeof body.x).toBe('string');
	});
});
