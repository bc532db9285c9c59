/**
 * One address, one bucket: textual aliases of an address share its budget, IPv6 addresses share
 * their /64's, and garbage never throws (better-auth CVE-2026-45364: IPv6 rotation and textual
 * aliasing bypassed its limiter).
 */
import { describe, expect, it } from 'vitest';
import { addressBucket, parseAddress } from '../../../src/lib/core/limit/address.js';

const bucket = (text: string, prefix = 64) => addressBucket(text, prefix);

describe('IPv4 and its IPv6 spellings', () => {
	it('IPv4-mapped IPv6, dotted or hex, any case, is the IPv4 address', () => {
		for (const alias of ['::ffff:192.0.2.7', '::FFFF:192.0.2.7', '::ffff:c000:207', '0:0:0:0:0:ffff:c000:0207', '[::ffff:192.0.2.7]']) {
			expect(bucket(alias), alias).toBe('192.0.2.7');
		}
		expect(bucket('192.0.2.7')).toBe('192.0.2.7');
	});

	it('NAT64 (64:ff9b::/96) is the IPv4 address it carries', () => {
		expect(bucket('64:ff9b::192.0.2.7')).toBe('192.0.2.7');
		expect(bucket('64:ff9b::c000:207')).toBe('192.0.2.7');
	});

	it('a port, as some proxies append it, does not make a new bucket', () => {
		expect(bucket('192.0.2.7:51234')).toBe('192.0.2.7');
		expect(bucket('[2001:db8::1]:443')).toBe(bucket('2001:db8::1'));
	});

	it('ambiguous IPv4 spellings (octal, short, hex) are not addresses', () => {
		for (const text of ['010.0.0.1', '127.1', '0x7f.0.0.1', '1.2.3.256', '1.2.3', '1.2.3.4.5', '٣.1.1.1']) {
			expect(bucket(text), text).toBeUndefined();
		}
	});
});

describe('IPv6 grouped by prefix', () => {
	it('rotating the interface identifier inside one /64 keeps the bucket', () => {
		const first = bucket('2001:db8:aa:bb::1');
		for (const other of ['2001:db8:aa:bb:ffff:ffff:ffff:ffff', '2001:0DB8:00aa:00bb:1:2:3:4', '2001:db8:aa:bb:0:0:0:9%eth0']) {
			expect(bucket(other), other).toBe(first);
		}
		expect(first).toBe('2001:db8:aa:bb:0:0:0:0/64');
	});

	it('a different /64 is a different bucket', () => {
		expect(bucket('2001:db8:aa:bc::1')).not.toBe(bucket('2001:db8:aa:bb::1'));
		expect(bucket('2001:db8:ab:bb::1')).not.toBe(bucket('2001:db8:aa:bb::1'));
	});

	it('the prefix is configurable (a /48 groups every /64 under it; /128 is one address)', () => {
		expect(bucket('2001:db8:aa:bb::1', 48)).toBe(bucket('2001:db8:aa:ffff::2', 48));
		expect(bucket('2001:db8:aa:bb::1', 48)).not.toBe(bucket('2001:db8:ab:bb::1', 48));
		expect(bucket('2001:db8::1', 128)).not.toBe(bucket('2001:db8::2', 128));
		expect(bucket('2001:db8::1', 56)).toBe('2001:db8:0:0:0:0:0:0/56');
		expect(bucket('2001:db8:0:ff::1', 57)).toBe('2001:db8:0:80:0:0:0:0/57');
	});

	it('compressed and full spellings agree', () => {
		expect(bucket('::1', 128)).toBe(bucket('0:0:0:0:0:0:0:1', 128));
		expect(bucket('fe80::', 64)).toBe(bucket('FE80:0::0', 64));
	});
});

describe('garbage', () => {
	it('is not an address, and never throws', () => {
		const garbage = [
			'', ' ', 'unknown', '_hidden', 'localhost', ':::', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '12345::',
			'::ffff:1.2.3', '1.2.3.4::', 'g::1', '[::1', '::1]', 'x'.repeat(100_000), '\u0000', '::ffff:1.2.3.4.5',
			'1.2.3.4:99999999'
		];
		for (const text of garbage) expect(bucket(text), JSON.stringify(text.slice(0, 20))).toBeUndefined();
		for (const value of [undefined, null, 42, {}, []]) expect(parseAddress(value as unknown as string)).toBeUndefined();
	});
});

describe('the plain-IPv4 shortcut', () => {
	it('gives what the full parse gives, for dotted quads of every shape (leading zeros, > 255, ports, spaces)', () => {
		// The full parse's bucket for IPv4: its 16 bytes' last four, written in decimal.
		const parsed = (text: string) => {
			const bytes = parseAddress(text);
			return bytes && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff
				? `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`
				: undefined;
		};
		const parts = ['0', '00', '7', '07', '10', '010', '99', '100', '199', '249', '250', '255', '256', '300', '999', '1000', ''];
		let seed = 7;
		const pick = () => parts[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length]!;
		for (let i = 0; i < 3000; i++) {
			const text = `${pick()}.${pick()}.${pick()}.${pick()}${i % 10 === 0 ? ':8080' : ''}${i % 15 === 0 ? ' ' : ''}`;
			expect(bucket(text), text).toBe(parsed(text));
		}
	});
});
