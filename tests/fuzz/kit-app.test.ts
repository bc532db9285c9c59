/**
 * The same fuzzing through the SvelteKit handle: tests/kit-app built with `vite build` and served
 * by adapter-node (database sessions on a libSQL file, an OIDC provider on loopback), attacked
 * over real HTTP with `node:http` (which, unlike `fetch`, sends any Host, method and
 * Content-Length it is given). Its auth endpoints under `/base/api/auth`, its form actions
 * (`?/signIn`, `?/signOut`) and a protected page get the generator's cases, fewer than the core's
 * (a round trip to another process each); then hand-made malformed HTTP (length lies, smuggling
 * shapes, oversized headers) must not take the server down.
 *
 * Oracles as in auth.test.ts. The origins a redirect may go to are the app's own and whatever the
 * request's Host and X-Forwarded-Proto made it: the fixture trusts them (`AUTH_TRUST_HOST`,
 * adapter-node's `PROTOCOL_HEADER`), as a deployment behind a proxy that sets them does.
 */
import { createClient, type Client } from '@libsql/client';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROGUE_CLIENT_ID, ROGUE_CLIENT_SECRET, startRogueIdp, type RogueIdp } from '../support/rogue-idp.js';
import { buildFixtureOnce, KIT3_APP, type RunningApp, startFixture } from '../sveltekit/kit-app-server.js';
import { type Failure, jarAfter, report, REQUEST_BOUND_MS } from './driver.js';
import { Generator, type FuzzRequest, type FuzzTarget } from './generator.js';
import { type Answer, checkAnswer } from './oracles.js';
import { caseIndices, fuzzSettings, Random } from './random.js';
import { ROUTE_KEYS, WITH_PROVIDER } from './worlds.js';

const settings = fuzzSettings(200);
const BASE = '/base/api/auth';
const SESSION_COOKIE = 'authjs.session-token';

let app: RunningApp;
let rogue: RogueIdp;
let db: Client;
let target: FuzzTarget;

interface Sent {
	method: string;
	path: string;
	headers: [string, string][];
	body?: Uint8Array;
}

/** One HTTP request on its own connection; the answer, or an error after `REQUEST_BOUND_MS`. */
function send({ method, path, headers, body }: Sent): Promise<Answer & { setCookies: string[] }> {
	const { port } = new URL(app.origin);
	return new Promise((resolve, reject) => {
		const req = httpRequest({ host: '127.0.0.1', port, method, path, agent: false, timeout: REQUEST_BOUND_MS }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('error', reject);
			res.on('end', () => {
				const out = new Headers();
				for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
				resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8'), setCookies: out.getSetCookie() });
			});
		});
		req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_BOUND_MS} ms`)));
		req.on('error', reject);
		for (const [name, value] of headers) req.setHeader(name, value);
		req.end(body === undefined ? undefined : Buffer.from(body));
	});
}

beforeAll(async () => {
	const built = await buildFixtureOnce(KIT3_APP);
	console.info(built.reused ? 'tests/kit-app: reusing its build' : `tests/kit-app built in ${built.ms} ms`);
	rogue = await startRogueIdp();
	app = await startFixture(KIT3_APP, { KIT_APP_OIDC_ISSUER: rogue.issuer, KIT_APP_OIDC_ID: ROGUE_CLIENT_ID, KIT_APP_OIDC_SECRET: ROGUE_CLIENT_SECRET });
	rogue.allowRedirectUri(`${app.origin}${BASE}/callback/rogue`);
	db = createClient({ url: app.databaseUrl });
	await db.execute('PRAGMA busy_timeout = 5000');

	// Genuine material, from the app itself.
	const proto: [string, string] = ['x-forwarded-proto', 'http'];
	const csrf = await send({ method: 'GET', path: `${BASE}/csrf`, headers: [proto] });
	const csrfToken = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken;
	const csrfCookie = cookieValue(csrf.setCookies, 'authjs.csrf-token');
	const start = await send({
		method: 'POST',
		path: `${BASE}/signin/rogue`,
		headers: [proto, ['origin', app.origin], ['content-type', 'application/x-www-form-urlencoded'], ['cookie', `authjs.csrf-token=${csrfCookie}`]],
		body: new Uint8Array(Buffer.from(`csrfToken=${encodeURIComponent(csrfToken)}`))
	});
	const authorization = start.headers.get('location') ?? '';
	if (start.status !== 302 || !authorization.startsWith(rogue.issuer)) throw new Error(`OAuth start answered ${start.status} ${authorization}`);
	const checks = Object.fromEntries(
		start.setCookies.map((c) => c.split(';')[0]!.split('=') as [string, string]).filter(([name]) => /state|pkce|nonce/.test(name))
	);
	target = {
		origin: app.origin,
		basePath: BASE,
		routes: ROUTE_KEYS,
		withProvider: WITH_PROVIDER,
		providers: ['credentials', 'rogue'],
		cookies: {
			session: SESSION_COOKIE,
			// What the app reads when a request says it came over https (X-Forwarded-Proto).
			sessionAliases: [`__Host-${SESSION_COOKIE}`, `__Secure-${SESSION_COOKIE}`],
			csrf: 'authjs.csrf-token',
			callbackUrl: 'authjs.callback-url',
			checks: ['authjs.pkce.code_verifier', 'authjs.state', 'authjs.nonce', 'authjs.challenge']
		},
		material: {
			csrfCookie,
			csrfToken,
			oauth: { provider: 'rogue', cookies: checks, state: new URL(authorization).searchParams.get('state') ?? '' },
			foreignSessions: ['0'.repeat(64), 'f'.repeat(64), crypto.randomUUID(), 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.BBBB.CCCC']
		},
		pages: ['/base/form', '/base/form?/signIn', '/base/form?/signOut', '/base/app/protected']
	};
}, 180_000);

afterAll(async () => {
	db?.close();
	await app?.stop();
	await rogue?.close();
});

function cookieValue(setCookies: string[], name: string): string {
	const pair = setCookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`));
	if (!pair) throw new Error(`no ${name} cookie`);
	return pair.slice(name.length + 1);
}

/**
 * The case as a proxy in front of the app would pass it on: most carry `X-Forwarded-Proto: http`
 * (this server is plain http). Content-Length lies that would leave the server waiting for bytes
 * that never come are turned into ones it can answer at once (shorter, or over its body limit).
 */
function asSent(req: FuzzRequest, r: Random): Sent {
	const headers = [...req.headers];
	if (!headers.some(([name]) => name === 'x-forwarded-proto') && r.chance(0.9)) headers.push(['x-forwarded-proto', 'http']);
	const length = headers.findIndex(([name]) => name === 'content-length');
	if (length !== -1 && req.body) {
		const declared = Number(headers[length]![1]);
		if (Number.isFinite(declared) && declared > req.body.byteLength && declared <= 1024 * 1024) headers[length] = ['content-length', String(Math.max(0, req.body.byteLength - 1))];
	}
	return { method: req.method, path: req.target, headers, body: req.body };
}

/** The origins a redirect may go to for this request (see the header comment). */
function origins(sent: Sent): string[] {
	const host = sent.headers.find(([name]) => name === 'host')?.[1];
	const port = new URL(app.origin).port;
	const hosts = [`127.0.0.1:${port}`, ...(host ? [host] : [])];
	return hosts.flatMap((h) => [`http://${h}`, `https://${h}`]);
}

describe('fuzzing the SvelteKit handle over HTTP', () => {
	test(`hostile requests get bounded, harmless answers (seed ${settings.seed})`, { timeout: 240_000 }, async () => {
		const failures: Failure[] = [];
		const stats = { cases: 0, unsendable: 0, reset: 0, statuses: {} as Record<number, number> };
		for (const index of caseIndices(settings)) {
			const r = new Random(settings.seed + 0x51f15e, index);
			const req = new Generator(target, r, index).request();
			const sent = asSent(req, r);
			stats.cases++;
			const violations: string[] = [];
			let answer: Awaited<ReturnType<typeof send>>;
			try {
				answer = await send(sent);
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				// node:http refuses some inputs before sending anything (a path with raw spaces).
				const code = (error as { code?: string }).code;
				if (/ERR_UNESCAPED_CHARACTERS|Invalid character|Request path contains|ERR_INVALID/i.test(`${code} ${message}`)) {
					stats.unsendable++;
					continue;
				}
				// The server refused before reading it all (an unparsable Content-Length, a body over
				// its limit) and closed while the body was still being sent: answered, by Node.
				if (code === 'ECONNRESET' || code === 'EPIPE') {
					stats.reset++;
					continue;
				}
				failures.push({ request: { ...req, headers: sent.headers }, violations: [`no answer: ${message}`] });
				continue;
			}
			stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
			violations.push(
				...checkAnswer(answer, { origins: origins(sent), authorizationEndpoints: [`${rogue.issuer}/authorize`], sessionCookie: SESSION_COOKIE, marker: req.marker, url: `${app.origin}${req.target}` })
			);
			const jar = jarAfter(req, answer.setCookies);
			// Node refuses request headers over 16 KB (431) before the app sees them, and closes the
			// connection: whether the client reads the 431 first or meets the reset is a race.
			const oversized = jar.length > 16 * 1024 - 200;
			const check = await send({ method: 'GET', path: `${BASE}/session`, headers: [['x-forwarded-proto', 'http'], ...(jar ? [['cookie', jar] as [string, string]] : [])] }).catch(
				(error: { code?: string }) => {
					if (oversized && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return { status: 431, body: '' };
					throw error;
				}
			);
			const tooLarge = check.status === 431 && oversized;
			if (!tooLarge && (check.status !== 200 || check.body !== 'null')) violations.push(`GET session afterwards: ${check.status} ${check.body.slice(0, 200)}`);
			if (violations.length) failures.push({ request: { ...req, headers: sent.headers }, violations });
			if (failures.length >= 25) break;
		}
		const { rows } = await db.execute('SELECT count(*) AS n FROM "session"');
		expect(Number(rows[0]?.['n']), 'session rows stored').toBe(0);
		expect(failures.length, report(`kit-app (seed ${settings.seed})`, settings, failures, stats)).toBe(0);
		expect(stats.unsendable, JSON.stringify(stats)).toBeLessThan(stats.cases * 0.1);
		console.info(`kit-app: ${JSON.stringify(stats)}`);
	});

	/** Raw bytes on a socket; the status line of the answer (`undefined`: closed without one). */
	function raw(bytes: string): Promise<number | undefined> {
		const { port } = new URL(app.origin);
		return new Promise((resolve, reject) => {
			const socket = connect(Number(port), '127.0.0.1');
			let data = '';
			const timer = setTimeout(() => {
				socket.destroy();
				reject(new Error(`no answer within ${REQUEST_BOUND_MS} ms`));
			}, REQUEST_BOUND_MS);
			const done = () => {
				clearTimeout(timer);
				const match = /^HTTP\/1\.[01] (\d{3})/.exec(data);
				resolve(match ? Number(match[1]) : undefined);
			};
			socket.on('data', (chunk: Buffer) => {
				data += chunk.toString('latin1');
				// The first answer is enough (a pipelined remainder may get its own).
				if (/\r\n\r\n/.test(data)) {
					socket.destroy();
					done();
				}
			});
			socket.on('end', done);
			socket.on('close', done);
			socket.on('error', () => done());
			socket.end(Buffer.from(bytes, 'latin1'));
		});
	}

	test('malformed HTTP (length lies, smuggling shapes, oversized headers) gets a 4xx or a closed connection, and the server keeps serving', async () => {
		const host = new URL(app.origin).host;
		const form = 'csrfToken=x&email=a%40b&password=p';
		const post = (path: string, headers: string, body: string) => `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Proto: http\r\nOrigin: ${app.origin}\r\n${headers}Connection: close\r\n\r\n${body}`;
		const cases: Record<string, string> = {
			'Content-Length shorter than the body': post(`${BASE}/signin/credentials`, `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n`, `${form}GET /x HTTP/1.1\r\n\r\n`),
			'Content-Length and Transfer-Encoding': post(`${BASE}/callback/credentials`, `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n`, `${form.length.toString(16)}\r\n${form}\r\n0\r\n\r\n`),
			'broken chunked encoding': post(`${BASE}/signout`, `Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n`, `zz\r\n${form}\r\n0\r\n\r\n`),
			'two Content-Lengths': post(`${BASE}/session`, `Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n`, '{}'),
			'Content-Length with two values': post(`${BASE}/signin`, `Content-Type: application/json\r\nContent-Length: 2, 3\r\n`, '{}'),
			'Content-Length over the body limit': post('/base/form?/signIn', `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 99999999\r\n`, form),
			'a JSON body declared as a form': post('/base/form?/signIn', `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n`, '{"a":1}'),
			'multipart without a boundary': post('/base/form?/signIn', `Content-Type: multipart/form-data\r\nContent-Length: ${form.length}\r\n`, form),
			'two Host headers': `GET ${BASE}/session HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
			'absolute-form target on another host': `GET http://evil.example${BASE}/signin HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Proto: http\r\nConnection: close\r\n\r\n`,
			'a Host with a path': `GET ${BASE}/signin HTTP/1.1\r\nHost: evil.example/x?\r\nX-Forwarded-Proto: http\r\nConnection: close\r\n\r\n`,
			'no Host (HTTP/1.1)': `GET ${BASE}/csrf HTTP/1.1\r\nConnection: close\r\n\r\n`,
			'a header line without a colon': `GET ${BASE}/session HTTP/1.1\r\nHost: ${host}\r\ngarbage\r\nConnection: close\r\n\r\n`,
			'obsolete line folding': `GET ${BASE}/session HTTP/1.1\r\nHost: ${host}\r\nCookie: a=b;\r\n authjs.session-token=${'0'.repeat(64)}\r\nConnection: close\r\n\r\n`,
			'a 100 KB cookie': `GET ${BASE}/session HTTP/1.1\r\nHost: ${host}\r\nCookie: authjs.session-token=${'x'.repeat(100_000)}\r\nConnection: close\r\n\r\n`,
			'a raw space in the path': `GET ${BASE}/signin/cred entials HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
			'a NUL in a header': `GET ${BASE}/session HTTP/1.1\r\nHost: ${host}\r\nCookie: authjs.session-token=\0abc\r\nConnection: close\r\n\r\n`,
			'an unknown HTTP version': `GET ${BASE}/session HTTP/9.9\r\nHost: ${host}\r\nConnection: close\r\n\r\n`
		};
		const statuses: Record<string, number | undefined> = {};
		for (const [name, bytes] of Object.entries(cases)) statuses[name] = await raw(bytes);
		for (const [name, status] of Object.entries(statuses)) {
			// 505 is Node's own answer to an HTTP version it does not speak.
			if (status !== undefined) expect(status < 500 || (name === 'an unknown HTTP version' && status === 505), `${name}: ${status}`).toBe(true);
		}
		const after = await send({ method: 'GET', path: `${BASE}/session`, headers: [['x-forwarded-proto', 'http']] });
		expect(after.status).toBe(200);
		expect(after.body).toBe('null');
		const { rows } = await db.execute('SELECT count(*) AS n FROM "session"');
		expect(Number(rows[0]?.['n'])).toBe(0);
		console.info(`malformed HTTP: ${JSON.stringify(statuses)}`);
	});
});
