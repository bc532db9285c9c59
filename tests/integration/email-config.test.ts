/**
 * Email providers' configuration: what is refused at start-up (no adapter, missing methods, no way
 * to send), environment inference (`AUTH_<ID>_SERVER`, `_FROM`, `_KEY`), a custom sender (an HTTP
 * mail API), the provider hooks, and compatibility with Auth.js (its presets, its links).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { Auth as AuthJs, type AuthConfig as AuthJsConfig } from '@auth/core';
import AuthJsNodemailer from '@auth/core/providers/nodemailer';
import { afterEach, describe, expect, test } from 'vitest';
import { createAuthServer, InvalidProvider, MissingAdapter, MissingAdapterMethods } from '../../src/lib/core/index.js';
import type { Adapter } from '../../src/lib/core/types.js';
import type { Provider, Session } from '../../src/lib/core/types.js';
import Email, { verificationMessage } from '../../src/lib/providers/email.js';
import Nodemailer from '../../src/lib/providers/nodemailer.js';
import { TestClient } from '../support/client.js';
import { linkOf } from '../support/smtp.js';
import { ORIGIN, SECRET, SESSION_COOKIE, location, sessionCookiesSet, setup } from './fixtures.js';
import { emailSetup, expectVerifyRequest, followLink, FROM, lastMessageTo, openEmailWorld, PROVIDER, requestLink, type EmailWorld } from './email-fixtures.js';

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

const NEEDED = ['createVerificationToken', 'useVerificationToken', 'getUserByEmail', 'createUser', 'updateUser', 'getUserByAccount', 'linkAccount'];

describe('refused at start-up', () => {
	test.each(['database', 'jwt'] as const)('no adapter (%s sessions): MissingAdapter naming the methods', (strategy) => {
		const config = { secret: SECRET, trustHost: true, session: { strategy: 'jwt' as const }, providers: [Nodemailer({ server: 'smtp://127.0.0.1:1' })] };
		const make = () => createAuthServer(strategy === 'jwt' ? config : { ...config, session: undefined });
		expect(make).toThrow(MissingAdapter);
		expect(make).toThrow(NEEDED.join(', '));
	});

	test('an adapter without the token methods: MissingAdapterMethods naming them', async () => {
		const w = await world();
		const { createVerificationToken: _c, useVerificationToken: _u, ...partial } = w.store.adapter;
		const make = () =>
			createAuthServer({ secret: SECRET, trustHost: true, adapter: partial as Adapter, providers: [Nodemailer({ server: w.mailbox.url })] });
		expect(make).toThrow(MissingAdapterMethods);
		expect(make).toThrow('createVerificationToken, useVerificationToken');
	});

	test('no server and no sendVerificationRequest: a configuration error naming AUTH_<ID>_SERVER', async () => {
		const w = await world();
		for (const provider of [Nodemailer, Nodemailer(), Email()] as Provider[]) {
			const make = () => createAuthServer({ secret: SECRET, trustHost: true, adapter: w.store.adapter, providers: [provider] }, { env: {} });
			expect(make).toThrow(InvalidProvider);
			expect(make).toThrow(/AUTH_(NODEMAILER|EMAIL)_SERVER/);
		}
		// And Auth() answers a configuration error for every request, never a sign-in.
		const client = setup({ adapter: w.store.adapter, providers: [Nodemailer()] }, ORIGIN).client();
		expect((await client.get('csrf')).status).toBe(500);
		const res = await client.post(`signin/${PROVIDER}`, { form: { email: 'a@example.com' } });
		expect(res.status).toBe(500);
		expect(w.mailbox.messages).toEqual([]);
	});

	test.each([0, -1, Number.NaN, '60'])('maxAge %s: refused', async (maxAge) => {
		const w = await world();
		expect(() =>
			createAuthServer({ secret: SECRET, trustHost: true, adapter: w.store.adapter, providers: [Nodemailer({ server: w.mailbox.url, maxAge: maxAge as number })] })
		).toThrow(InvalidProvider);
	});
});

describe('environment inference', () => {
	test('AUTH_NODEMAILER_SERVER and AUTH_NODEMAILER_FROM configure the Nodemailer preset', async () => {
		const w = await world();
		const env = { AUTH_NODEMAILER_SERVER: w.mailbox.url, AUTH_NODEMAILER_FROM: 'Env <env@example.test>' };
		const s = setup({ adapter: w.store.adapter, providers: [Nodemailer] }, ORIGIN, env);
		expectVerifyRequest(await requestLink(s.client(), 'ann@example.com'), ORIGIN);
		expect(lastMessageTo(w, 'ann@example.com').message.from?.value).toEqual([{ name: 'Env', address: 'env@example.test' }]);
	});

	test('AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM configure the Email preset (id "email")', async () => {
		const w = await world();
		const env = { AUTH_EMAIL_SERVER: w.mailbox.url, AUTH_EMAIL_FROM: 'Env <env@example.test>' };
		const s = setup({ adapter: w.store.adapter, providers: [Email] }, ORIGIN, env);
		expectVerifyRequest(await requestLink(s.client(), 'bo@example.com', {}, 'email'), ORIGIN, 'email');
		const { link, message } = lastMessageTo(w, 'bo@example.com');
		expect(message.from?.value).toEqual([{ name: 'Env', address: 'env@example.test' }]);
		expect(link.pathname).toBe('/auth/callback/email');
		expect(sessionCookiesSet((await followLink(s.client(), link)).signIn)).toEqual([SESSION_COOKIE]);
	});

	test('without a sender address: no-reply at the site\'s host', async () => {
		const w = await world();
		const s = setup({ adapter: w.store.adapter, providers: [Nodemailer({ server: w.mailbox.url })] });
		expectVerifyRequest(await requestLink(s.client(), 'dee@example.com'), ORIGIN);
		expect(lastMessageTo(w, 'dee@example.com').message.from?.value).toEqual([{ name: '', address: 'no-reply@localhost' }]);
	});

	test('options given explicitly win over the environment', async () => {
		const w = await world();
		const env = { AUTH_NODEMAILER_SERVER: 'smtp://127.0.0.1:1', AUTH_NODEMAILER_FROM: 'Env <env@example.test>' };
		const s = setup({ adapter: w.store.adapter, providers: [Nodemailer({ server: w.mailbox.url, from: FROM })] }, ORIGIN, env);
		expectVerifyRequest(await requestLink(s.client(), 'cy@example.com'), ORIGIN);
		expect(lastMessageTo(w, 'cy@example.com').message.from?.value).toEqual([{ name: 'kitauth tests', address: 'no-reply@example.test' }]);
	});
});

/** A stand-in for an HTTP mail API: keeps the JSON bodies it is sent, answers `status`. */
async function startMailApi(status = 202) {
	const received: { authorization?: string; body: Record<string, string> }[] = [];
	const server = createServer((req: IncomingMessage, res) => {
		let data = '';
		req.on('data', (chunk: Buffer) => (data += chunk.toString()));
		req.on('end', () => {
			received.push({ authorization: req.headers.authorization, body: JSON.parse(data) as Record<string, string> });
			res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
		});
	});
	const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
	cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
	return { url: `http://127.0.0.1:${port}/send`, received };
}

describe('a custom sender: kitauth/providers/email with an HTTP mail API', () => {
	const apiProvider = (url: string) =>
		Email({
			from: FROM,
			async sendVerificationRequest({ identifier, url: link, provider, theme, expires, code }) {
				const { subject, text, html } = verificationMessage({ url: link, theme, expires, code });
				const res = await fetch(url, {
					method: 'POST',
					headers: { authorization: `Bearer ${provider.apiKey}`, 'content-type': 'application/json' },
					body: JSON.stringify({ from: provider.from, to: identifier, subject, text, html })
				});
				if (!res.ok) throw new Error(`mail API answered ${res.status}`);
			}
		});

	test('the API gets the message (key from AUTH_EMAIL_KEY); its link signs in', async () => {
		const w = await world();
		const api = await startMailApi();
		const s = setup({ adapter: w.store.adapter, providers: [apiProvider(api.url)] }, ORIGIN, { AUTH_EMAIL_KEY: 'key-123' });
		expectVerifyRequest(await requestLink(s.client(), 'dee@example.com', {}, 'email'), ORIGIN, 'email');
		expect(api.received).toHaveLength(1);
		const [{ authorization, body }] = api.received as [(typeof api.received)[number]];
		expect(authorization).toBe('Bearer key-123');
		expect(body).toMatchObject({ from: FROM, to: 'dee@example.com', subject: 'Sign in to localhost:3000' });
		const link = new URL(/https?:\/\/\S+/.exec(body.text!)![0]);
		expect(body.html).toContain(link.href.replaceAll('&', '&amp;'));
		const client = s.client();
		expect(sessionCookiesSet((await followLink(client, link)).signIn)).toEqual([SESSION_COOKIE]);
	});

	test('the API refusing: EmailSignin, and no token left behind', async () => {
		const w = await world();
		const api = await startMailApi(500);
		const s = setup({ adapter: w.store.adapter, providers: [apiProvider(api.url)] }, ORIGIN, { AUTH_EMAIL_KEY: 'key-123' });
		const res = await requestLink(s.client(), 'dee@example.com', {}, 'email');
		expect(location(res).href).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`);
		expect(api.received).toHaveLength(1);
		expect(await w.tokens()).toEqual([]);
		expect(s.errors.map((e) => e.name)).toContain('EmailSignInError');
	});
});

describe('provider hooks and options', () => {
	test('maxAge sets when the link expires', async () => {
		const w = await world();
		const s = emailSetup(w, { maxAge: 600 });
		await requestLink(s.client(), 'eve@example.com');
		const [row] = await w.tokens();
		expect(row!.expires).toBeGreaterThan(Date.now() + 590_000);
		expect(row!.expires).toBeLessThanOrEqual(Date.now() + 600_000);
	});

	test('generateVerificationToken makes the token; normalizeIdentifier the address', async () => {
		const w = await world();
		const s = emailSetup(w, {
			generateVerificationToken: () => 'my-own-token-0123456789abcdef0123456789abcdef',
			normalizeIdentifier: (value) => value.trim().toLowerCase().replace(/\+[^@]*@/, '@')
		});
		const client = s.client();
		await requestLink(client, ' Fay+News@Example.com');
		const { link } = lastMessageTo(w, 'fay@example.com');
		expect(link.searchParams.get('token')).toBe('my-own-token-0123456789abcdef0123456789abcdef');
		expect(link.searchParams.get('email')).toBe('fay@example.com');
		expect(sessionCookiesSet((await followLink(client, link)).signIn)).toEqual([SESSION_COOKIE]);
	});

	test('what normalizeIdentifier returns must still be one plain address', async () => {
		const w = await world();
		const s = emailSetup(w, { normalizeIdentifier: (value) => `${value}, attacker@evil.example` });
		const res = await requestLink(s.client(), 'gu@example.com');
		expect(location(res).href).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`);
		expect(w.mailbox.messages).toEqual([]);
		expect(await w.tokens()).toEqual([]);
	});

	test('pages.verifyRequest: the start lands there (with the query)', async () => {
		const w = await world();
		const s = emailSetup(w, {}, { pages: { verifyRequest: '/check-your-email' } });
		const client = s.client();
		const res = await requestLink(client, 'hal@example.com');
		const next = await client.get(location(res).href);
		expect(location(next).href).toBe(`${ORIGIN}/check-your-email?provider=${PROVIDER}&type=email`);
	});
});

describe('Auth.js compatibility', () => {
	/** @auth/core with its own Nodemailer preset, on the same store and secret. */
	function authjs(w: EmailWorld): TestClient {
		const config: AuthJsConfig = {
			secret: SECRET,
			trustHost: true,
			basePath: '/auth',
			adapter: w.store.adapter as AuthJsConfig['adapter'],
			providers: [AuthJsNodemailer({ server: w.mailbox.url, from: FROM })],
			logger: { error: () => {}, warn: () => {}, debug: () => {} }
		};
		return new TestClient((request) => AuthJs(request, config));
	}

	test('a link Auth.js sent before the switch still signs in with kitauth (once)', async () => {
		const w = await world();
		const before = authjs(w);
		const res = await before.postForm(`signin/${PROVIDER}`, { email: 'ida@example.com', callbackUrl: `${ORIGIN}/account` });
		expect(res.status).toBe(302);
		const link = linkOf(w.mailbox.to('ida@example.com')[0]!);
		const s = emailSetup(w);
		const client = s.client();
		const { signIn } = await followLink(client, link);
		expect(location(signIn).href).toBe(`${ORIGIN}/account`);
		expect(sessionCookiesSet(signIn)).toEqual([SESSION_COOKIE]);
		expect(((await client.session()) as Session).user?.email).toBe('ida@example.com');
		const replay = await followLink(s.client(), link);
		expect(location(replay.signIn).searchParams.get('error')).toBe('Verification');
	});

	test('not the other way round: a link kitauth sent does not sign in with Auth.js (after a rollback)', async () => {
		const w = await world();
		const client = emailSetup(w).client();
		expectVerifyRequest(await requestLink(client, 'lea@example.com'), ORIGIN);
		const link = new URL(linkOf(w.mailbox.to('lea@example.com')[0]!));
		const after = authjs(w);
		const res = await after.get(`${link.pathname}${link.search}`);
		expect(res.status).toBe(302);
		expect(location(res).searchParams.get('error')).toBe('Verification');
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test("Auth.js's Nodemailer preset runs in kitauth as it is", async () => {
		const w = await world();
		const s = setup({ adapter: w.store.adapter, providers: [AuthJsNodemailer({ server: w.mailbox.url, from: FROM }) as unknown as Provider] });
		const client = s.client();
		expectVerifyRequest(await requestLink(client, 'jo@example.com'), ORIGIN);
		const link = linkOf(w.mailbox.to('jo@example.com')[0]!);
		expect(sessionCookiesSet((await followLink(client, link)).signIn)).toEqual([SESSION_COOKIE]);
	});
});
