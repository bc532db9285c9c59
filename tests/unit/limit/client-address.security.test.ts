/**
 * Forwarded headers are client input unless the app says its own proxies set them: a forged
 * `X-Forwarded-For` must not buy a fresh budget; a declared one is read at the declared depth.
 */
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../../src/lib/core/limit/client-address.js';

const PEER = '203.0.113.9';
const headers = (init: Record<string, string>) => new Headers(init);
const xff = (depth = 1) => ({ header: 'x-forwarded-for', depth });

describe('undeclared', () => {
	it('X-Forwarded-For, Forwarded, X-Real-IP are ignored: the connection address counts', () => {
		const forged = headers({
			'x-forwarded-for': '198.51.100.1',
			forwarded: 'for=198.51.100.2',
			'x-real-ip': '198.51.100.3',
			'cf-connecting-ip': '198.51.100.4'
		});
		expect(clientAddress(PEER, forged, undefined)).toBe(PEER);
	});

	it('no connection address: none (the caller then applies no address limit)', () => {
		expect(clientAddress(undefined, headers({ 'x-forwarded-for': '198.51.100.1' }), undefined)).toBeUndefined();
		expect(clientAddress('', headers({}), undefined)).toBeUndefined();
	});
});

describe('X-Forwarded-For, declared', () => {
	it('one proxy: the rightmost entry (the one it appended); what the client sent is further left', () => {
		expect(clientAddress(PEER, headers({ 'x-forwarded-for': '192.0.2.10' }), xff())).toBe('192.0.2.10');
		const forged = headers({ 'x-forwarded-for': '198.51.100.1, 10.0.0.1, 192.0.2.10' });
		expect(clientAddress(PEER, forged, xff())).toBe('192.0.2.10');
	});

	it('two proxies: the second from the right', () => {
		const value = headers({ 'x-forwarded-for': '198.51.100.1, 192.0.2.10, 10.0.0.2' });
		expect(clientAddress(PEER, value, xff(2))).toBe('192.0.2.10');
	});

	it('several header lines are one list', () => {
		const value = new Headers();
		value.append('x-forwarded-for', '198.51.100.1');
		value.append('x-forwarded-for', '192.0.2.10');
		expect(clientAddress(PEER, value, xff())).toBe('192.0.2.10');
	});

	it('missing, or fewer entries than proxies (the request bypassed one): the connection address', () => {
		expect(clientAddress(PEER, headers({}), xff())).toBe(PEER);
		expect(clientAddress(PEER, headers({ 'x-forwarded-for': '192.0.2.10' }), xff(2))).toBe(PEER);
	});
});

describe('Forwarded (RFC 7239), declared', () => {
	const forwarded = (depth = 1) => ({ header: 'forwarded', depth });

	it('reads for= of the element at the depth, quoted, with ports and IPv6 brackets', () => {
		expect(clientAddress(PEER, headers({ forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43' }), forwarded())).toBe('192.0.2.60');
		expect(clientAddress(PEER, headers({ forwarded: 'for="[2001:db8:cafe::17]:4711"' }), forwarded())).toBe('[2001:db8:cafe::17]:4711');
		expect(clientAddress(PEER, headers({ forwarded: 'for=198.51.100.1, For="192.0.2.43:47011"' }), forwarded())).toBe('192.0.2.43:47011');
		expect(clientAddress(PEER, headers({ forwarded: 'for=192.0.2.43, for=10.0.0.1' }), forwarded(2))).toBe('192.0.2.43');
	});

	it("a client's unterminated quote cannot swallow the element our proxy appended", () => {
		const value = headers({ forwarded: 'for="198.51.100.1, for=192.0.2.43' });
		expect(clientAddress(PEER, value, forwarded())).toBe('192.0.2.43');
	});

	it('an element without for= (or for=unknown) is no address, not the next one along', () => {
		expect(clientAddress(PEER, headers({ forwarded: 'for=198.51.100.1, proto=https' }), forwarded())).toBe('');
		expect(clientAddress(PEER, headers({ forwarded: 'for=unknown' }), forwarded())).toBe('unknown');
	});
});

describe('a single-address header, declared', () => {
	it('X-Real-IP: its value; a list (a client sent one and the proxy appended) gives the proxy entry', () => {
		const real = { header: 'x-real-ip', depth: 1 };
		expect(clientAddress(PEER, headers({ 'x-real-ip': '192.0.2.10' }), real)).toBe('192.0.2.10');
		expect(clientAddress(PEER, headers({ 'x-real-ip': '198.51.100.1, 192.0.2.10' }), real)).toBe('192.0.2.10');
	});
});

describe('hostile input', () => {
	it('no headers object at all does not throw', () => {
		expect(clientAddress(PEER, undefined as unknown as Headers, xff())).toBe(PEER);
	});
});
