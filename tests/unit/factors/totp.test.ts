/**
 * TOTP against the RFCs' own test vectors: RFC 4226 Appendix D (HOTP, 6 digits) and RFC 6238
 * Appendix B (TOTP, SHA-1 seed), whose 8-digit codes end in the 6 digits an app shows.
 */
import { describe, expect, it } from 'vitest';
import { base32, matchTotp, normalizeTotp, timeStep, totpAt, totpUri } from '../../../src/lib/core/factors/totp.js';

const SEED = new TextEncoder().encode('12345678901234567890');

describe('TOTP (RFC 6238)', () => {
	it('computes RFC 4226 Appendix D HOTP values (the counter is the time step)', () => {
		const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
		expect(expected.map((_, count) => totpAt(SEED, count))).toEqual(expected);
	});

	it('computes RFC 6238 Appendix B SHA-1 values at the spec times (last 6 of the 8 digits)', () => {
		const vectors: [number, string][] = [
			[59, '94287082'],
			[1111111109, '07081804'],
			[1111111111, '14050471'],
			[1234567890, '89005924'],
			[2000000000, '69279037'],
			[20000000000, '65353130']
		];
		for (const [seconds, code] of vectors) {
			expect(totpAt(SEED, timeStep(seconds * 1000)), `T = ${seconds}`).toBe(code.slice(-6));
		}
		// RFC 6238 Appendix B's T column (hex) for 59 s and 1111111109 s.
		expect(timeStep(59_000)).toBe(0x1);
		expect(timeStep(1111111109_000)).toBe(0x23523ec);
	});

	it('accepts the current step and one either side, and names the step that matched', () => {
		const now = 1_700_000_000_000;
		const step = timeStep(now);
		expect(matchTotp(SEED, totpAt(SEED, step), now)).toBe(step);
		expect(matchTotp(SEED, totpAt(SEED, step - 1), now)).toBe(step - 1);
		expect(matchTotp(SEED, totpAt(SEED, step + 1), now)).toBe(step + 1);
		expect(matchTotp(SEED, totpAt(SEED, step - 2), now)).toBeUndefined();
		expect(matchTotp(SEED, totpAt(SEED, step + 2), now)).toBeUndefined();
	});

	it('reads typed codes with spaces or a dash, and nothing else', () => {
		expect(normalizeTotp(' 123 456 ')).toBe('123456');
		expect(normalizeTotp('123-456')).toBe('123456');
		for (const bad of ['12345', '1234567', 'abcdef', '１２３４５６', '', 123456, null, undefined, '1'.repeat(100)]) {
			expect(normalizeTotp(bad), String(bad)).toBeUndefined();
		}
	});

	it('encodes base32 as RFC 4648 §10 does (without padding) and builds the otpauth URI', () => {
		const vectors: [string, string][] = [['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']];
		for (const [text, encoded] of vectors) expect(base32(new TextEncoder().encode(text))).toBe(encoded);
		const uri = new URL(totpUri('Example Co', 'alice@example.com', SEED));
		expect(uri.protocol).toBe('otpauth:');
		expect(uri.host).toBe('totp');
		expect(decodeURIComponent(uri.pathname)).toBe('/Example Co:alice@example.com');
		expect(Object.fromEntries(uri.searchParams)).toMatchObject({
			secret: base32(SEED),
			issuer: 'Example Co',
			algorithm: 'SHA1',
			digits: '6',
			period: '30'
		});
	});
});
