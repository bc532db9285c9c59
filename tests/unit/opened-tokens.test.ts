/**
 * The memo of opened session tokens (core/session/opened-tokens.ts): a token read again is not
 * decrypted again, and nothing a decrypt would refuse is ever answered from the memo.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKeyring } from '../../src/lib/core/crypto/index.js';
import { openToken, sealToken } from '../../src/lib/core/session/jwt.js';
import { OPENED_TOKENS_MAX, rememberedCount } from '../../src/lib/core/session/opened-tokens.js';

const SALT = 'authjs.session-token';
const SECRET = 'opened-tokens-secret-opened-tokens-secret';

afterEach(() => vi.useRealTimers());

/** A one-character change in the ciphertext part (the fourth of five). */
function tampered(token: string): string {
	const parts = token.split('.');
	const ciphertext = parts[3]!;
	parts[3] = (ciphertext[0] === 'A' ? 'B' : 'A') + ciphertext.slice(1);
	return parts.join('.');
}

describe('opened session tokens', () => {
	it('are remembered, and each read gets its own copy of the claims', async () => {
		const keyring = createKeyring(SECRET);
		const token = await sealToken(keyring, SALT, { sub: 'u1', name: 'Ada' }, 3600);
		const first = await openToken(keyring, SALT, token);
		expect(rememberedCount(keyring, SALT)).toBe(1);
		first!.name = 'edited by a callback';
		const second = await openToken(keyring, SALT, token);
		expect(second).toMatchObject({ sub: 'u1', name: 'Ada' });
		expect(rememberedCount(keyring, SALT)).toBe(1);
	});

	it('still expire: a remembered token past its exp reads as nothing', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
		const keyring = createKeyring(SECRET);
		const token = await sealToken(keyring, SALT, { sub: 'u1' }, 60);
		expect(await openToken(keyring, SALT, token)).toMatchObject({ sub: 'u1' });
		vi.setSystemTime(new Date('2030-01-01T00:02:00Z'));
		expect(await openToken(keyring, SALT, token)).toBeNull();
	});

	it('answer only the same string, salt and keyring: a changed token, another salt or another secret is refused', async () => {
		const keyring = createKeyring(SECRET);
		const token = await sealToken(keyring, SALT, { sub: 'u1' }, 3600);
		expect(await openToken(keyring, SALT, token)).not.toBeNull();
		expect(await openToken(keyring, SALT, tampered(token))).toBeNull();
		expect(await openToken(keyring, '__Secure-authjs.session-token', token)).toBeNull();
		expect(await openToken(createKeyring('another-secret-another-secret-another'), SALT, token)).toBeNull();
		// What did not open is not kept.
		expect(rememberedCount(keyring, SALT)).toBe(1);
		expect(rememberedCount(keyring, '__Secure-authjs.session-token')).toBe(0);
	});

	it('are bounded: the oldest is forgotten first, and a forgotten token still opens', async () => {
		const keyring = createKeyring(SECRET);
		const tokens = await Promise.all(Array.from({ length: OPENED_TOKENS_MAX + 5 }, (_, i) => sealToken(keyring, SALT, { sub: `u${i}` }, 3600)));
		for (const token of tokens) await openToken(keyring, SALT, token);
		expect(rememberedCount(keyring, SALT)).toBe(OPENED_TOKENS_MAX);
		expect(await openToken(keyring, SALT, tokens[0]!)).toMatchObject({ sub: 'u0' });
		expect(rememberedCount(keyring, SALT)).toBe(OPENED_TOKENS_MAX);
	});
});
