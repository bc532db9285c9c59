import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCsrf } from '../../src/lib/core/session/csrf.js';

const SECRET = 'csrf-secret-csrf-secret-csrf-secret-0000';
const sha256hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A cookie minted by the server for `secret` (via a first request without a cookie). */
function mint(secret = SECRET): { token: string; cookie: string } {
	const state = checkCsrf(undefined, secret, undefined);
	if (!state.cookieValue) throw new Error('expected a minted cookie');
	return { token: state.token, cookie: state.cookieValue };
}

describe('checkCsrf: minting', () => {
	it('without a cookie mints token|sha256(token + secret) with a 64-hex token', () => {
		const state = checkCsrf(undefined, SECRET, undefined);
		expect(state.verified).toBe(false);
		expect(state.token).toMatch(/^[0-9a-f]{64}$/);
		expect(state.cookieValue).toBe(`${state.token}|${sha256hex(state.token + SECRET)}`);
	});

	it('mints a different token each time', () => {
		expect(mint().token).not.toBe(mint().token);
	});

	it('an empty cookie counts as missing', () => {
		const state = checkCsrf('', SECRET, '');
		expect(state.verified).toBe(false);
		expect(state.cookieValue).toBeDefined();
	});

	it('an array secret is used as the comma-joined string (what the options pass)', () => {
		const state = checkCsrf(undefined, 'a,b', undefined);
		expect(state.cookieValue).toBe(`${state.token}|${sha256hex(`${state.token}a,b`)}`);
	});
});

describe('checkCsrf: verification', () => {
	it('a valid cookie plus the same token in the body is verified, and no new cookie is set', () => {
		const { token, cookie } = mint();
		const state = checkCsrf(cookie, SECRET, token);
		expect(state).toEqual({ token, verified: true });
	});

	it('accepts a cookie built independently from the documented format', () => {
		const token = 'ab'.repeat(32);
		const cookie = `${token}|${sha256hex(token + SECRET)}`;
		expect(checkCsrf(cookie, SECRET, token).verified).toBe(true);
	});

	it('a valid cookie without a body token keeps the token but is not verified', () => {
		const { token, cookie } = mint();
		expect(checkCsrf(cookie, SECRET, undefined)).toEqual({ token, verified: false });
	});

	it.each<[string, (token: string, cookie: string) => string]>([
		['another token', () => 'cd'.repeat(32)],
		['the token in upper case', (token) => token.toUpperCase()],
		['the whole cookie value', (_token, cookie) => cookie],
		['an empty string', () => ''],
		['a prefix of the token', (token) => token.slice(0, 32)],
		['the token with trailing space', (token) => `${token} `]
	])('a body token that is %s is not verified', (_name, bodyFor) => {
		const { token, cookie } = mint();
		const state = checkCsrf(cookie, SECRET, bodyFor(token, cookie));
		expect(state.verified).toBe(false);
		expect(state.token).toBe(token);
		expect(state.cookieValue).toBeUndefined();
	});

	it.each([[['x']], [42], [{ token: 'x' }], [null]])('a non-string body token (%j) is not verified', (body) => {
		const { cookie } = mint();
		expect(checkCsrf(cookie, SECRET, body).verified).toBe(false);
	});

	it('a non-string body equal in content to the token (an array holding it) is not verified', () => {
		const { token, cookie } = mint();
		expect(checkCsrf(cookie, SECRET, [token]).verified).toBe(false);
	});
});

describe('checkCsrf: forged, garbage or foreign cookies are replaced', () => {
	const assertReminted = (cookie: string, bodyToken: unknown, secret = SECRET): void => {
		const state = checkCsrf(cookie, secret, bodyToken);
		expect(state.verified).toBe(false);
		expect(state.cookieValue).toBe(`${state.token}|${sha256hex(state.token + secret)}`);
		expect(cookie.startsWith(state.token)).toBe(false);
	};

	it('a cookie with a forged hash mints a new token, and its token does not verify', () => {
		const token = 'ab'.repeat(32);
		assertReminted(`${token}|${sha256hex(token)}`, token);
		assertReminted(`${token}|${'0'.repeat(64)}`, token);
	});

	it('a cookie minted with another secret mints a new token', () => {
		const { token, cookie } = mint('some-other-secret-some-other-secret');
		assertReminted(cookie, token);
	});

	it.each([
		'garbage',
		'|',
		'|abc',
		'abc|',
		'x|y',
		'a|b|c',
		'%7C'
	])('garbage cookie %j mints a new token', (cookie) => {
		assertReminted(cookie, cookie.split('|')[0]);
	});

	it('an uppercase-hex token with a correct hash is refused (tokens are lowercase hex)', () => {
		const token = 'AB'.repeat(32);
		assertReminted(`${token}|${sha256hex(token + SECRET)}`, token);
	});

	it('a non-hex token with a correct hash is refused', () => {
		const token = 'z'.repeat(64);
		assertReminted(`${token}|${sha256hex(token + SECRET)}`, token);
	});

	it('a token of the wrong length with a correct hash is refused', () => {
		const token = 'ab'.repeat(16);
		assertReminted(`${token}|${sha256hex(token + SECRET)}`, token);
	});

	it('a valid cookie with extra |suffix is refused', () => {
		const { token, cookie } = mint();
		assertReminted(`${cookie}|extra`, token);
	});
});
