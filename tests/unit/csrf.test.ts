import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCsrf } from '../../src/lib/core/session/csrf.js';

const SECRET = 'csrf-secret-csrf-secret-csrf-secret-0000';
const sha256hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A cookie minted by the server for `secret` (via a first request without a cookie). */
async function mint(secret = SECRET): Promise<{ token: string; cookie: string }> {
	const state = await checkCsrf(undefined, secret, undefined);
	if (!state.cookieValue) throw new Error('expected a minted cookie');
	return { token: state.token, cookie: state.cookieValue };
}

describe('checkCsrf: minting', () => {
	it('without a cookie mints token|sha256(token + secret) with a 64-hex token', async () => {
		const state = await checkCsrf(undefined, SECRET, undefined);
		expect(state.verified).toBe(false);
		expect(state.token).toMatch(/^[0-9a-f]{64}$/);
		expect(state.cookieValue).toBe(`${state.token}|${sha256hex(state.token + SECRET)}`);
	});

	it('mints a different token each time', async () => {
		expect((await mint()).token).not.toBe((await mint()).token);
	});

	it('an empty cookie counts as missing', async () => {
		const state = await checkCsrf('', SECRET, '');
		expect(state.verified).toBe(false);
		expect(state.cookieValue).toBeDefined();
	});

	it('an array secret is used as the comma-joined string (what the options pass)', async () => {
		const state = await checkCsrf(undefined, 'a,b', undefined);
		expect(state.cookieValue).toBe(`${state.token}|${sha256hex(`${state.token}a,b`)}`);
	});
});

describe('checkCsrf: verification', () => {
	it('a valid cookie plus the same token in the body is verified, and no new cookie is set', async () => {
		const { token, cookie } = await mint();
		const state = await checkCsrf(cookie, SECRET, token);
		expect(state).toEqual({ token, verified: true });
	});

	it('accepts a cookie built independently from the documented format', async () => {
		const token = 'ab'.repeat(32);
		const cookie = `${token}|${sha256hex(token + SECRET)}`;
		expect((await checkCsrf(cookie, SECRET, token)).verified).toBe(true);
	});

	it('a valid cookie without a body token keeps the token but is not verified', async () => {
		const { token, cookie } = await mint();
		expect(await checkCsrf(cookie, SECRET, undefined)).toEqual({ token, verified: false });
	});

	it.each<[string, (token: string, cookie: string) => string]>([
		['another token', () => 'cd'.repeat(32)],
		['the token in upper case', (token) => token.toUpperCase()],
		['the whole cookie value', (_token, cookie) => cookie],
		['an empty string', () => ''],
		['a prefix of the token', (token) => token.slice(0, 32)],
		['the token with trailing space', (token) => `${token} `]
	])('a body token that is %s is not verified', async (_name, bodyFor) => {
		const { token, cookie } = await mint();
		const state = await checkCsrf(cookie, SECRET, bodyFor(token, cookie));
		expect(state.verified).toBe(false);
		expect(state.token).toBe(token);
		expect(state.cookieValue).toBeUndefined();
	});

	it.each([[['x']], [42], [{ token: 'x' }], [null]])('a non-string body token (%j) is not verified', async (body) => {
		const { cookie } = await mint();
		expect((await checkCsrf(cookie, SECRET, body)).verified).toBe(false);
	});

	it('a non-string body equal in content to the token (an array holding it) is not verified', async () => {
		const { token, cookie } = await mint();
		expect((await checkCsrf(cookie, SECRET, [token])).verified).toBe(false);
	});
});

describe('checkCsrf: forged, garbage or foreign cookies are replaced', () => {
	const assertReminted = async (cookie: string, bodyToken: unknown, secret = SECRET): Promise<void> => {
		const state = await checkCsrf(cookie, secret, bodyToken);
		expect(state.verified).toBe(false);
		expect(state.cookieValue).toBe(`${state.token}|${sha256hex(state.token + secret)}`);
		expect(cookie.startsWith(state.token)).toBe(false);
	};

	it('a cookie with a forged hash mints a new token, and its token does not verify', async () => {
		const token = 'ab'.repeat(32);
		await assertReminted(`${token}|${sha256hex(token)}`, token);
		await assertReminted(`${token}|${'0'.repeat(64)}`, token);
	});

	it('a cookie minted with another secret mints a new token', async () => {
		const { token, cookie } = await mint('some-other-secret-some-other-secret');
		await assertReminted(cookie, token);
	});

	it.each([
		'garbage',
		'|',
		'|abc',
		'abc|',
		'x|y',
		'a|b|c',
		'%7C'
	])('garbage cookie %j mints a new token', async (cookie) => {
		await assertReminted(cookie, cookie.split('|')[0]);
	});

	it('an uppercase-hex token with a correct hash is refused (tokens are lowercase hex)', async () => {
		const token = 'AB'.repeat(32);
		await assertReminted(`${token}|${sha256hex(token + SECRET)}`, token);
	});

	it('a non-hex token with a correct hash is refused', async () => {
		const token = 'z'.repeat(64);
		await assertReminted(`${token}|${sha256hex(token + SECRET)}`, token);
	});

	it('a token of the wrong length with a correct hash is refused', async () => {
		const token = 'ab'.repeat(16);
		await assertReminted(`${token}|${sha256hex(token + SECRET)}`, token);
	});

	it('a valid cookie with extra |suffix is refused', async () => {
		const { token, cookie } = await mint();
		await assertReminted(`${cookie}|extra`, token);
	});
});
