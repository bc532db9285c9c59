import { describe, expect, it } from 'vitest';
import { BACKUP_CODE_COUNT, backupCodeHasher, newBackupCodes, normalizeBackupCode } from '../../../src/lib/core/factors/backup-codes.js';

describe('backup codes', () => {
	it('makes ten different codes of two groups of five unambiguous characters', () => {
		const codes = newBackupCodes();
		expect(codes).toHaveLength(BACKUP_CODE_COUNT);
		expect(new Set(codes).size).toBe(BACKUP_CODE_COUNT);
		for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
	});

	it('reads a typed code whatever its case, spacing and look-alike letters', () => {
		expect(normalizeBackupCode('ABCDE-FGH0K')).toBe('abcdefgh0k');
		expect(normalizeBackupCode(' abcde fghok ')).toBe('abcdefgh0k');
		expect(normalizeBackupCode('1bcde-fghjk')).toBe(normalizeBackupCode('Ibcde-fghjk'));
		expect(normalizeBackupCode('lbcde-fghjk')).toBe('1bcdefghjk');
		for (const bad of ['abcde-fghj', 'abcde-fghjkm', 'abcde-fghju', '', 42, null, 'x'.repeat(100)]) {
			expect(normalizeBackupCode(bad), String(bad)).toBeUndefined();
		}
	});

	it('hashes per user under the newest secret, and finds codes made under an older one', async () => {
		const [code] = newBackupCodes();
		const old = backupCodeHasher(['old-secret-0123456789abcdef0123456789']);
		const rotated = backupCodeHasher(['new-secret-0123456789abcdef0123456789', 'old-secret-0123456789abcdef0123456789']);
		const stored = await old.hash('user-1', code!);
		expect(stored).toMatch(/^[0-9a-f]{32}$/);
		expect(await old.hash('user-1', code!.toUpperCase().replace('-', ' '))).toBe(stored);
		expect(await old.hash('user-2', code!)).not.toBe(stored);
		const candidates = await rotated.candidates('user-1', code!);
		expect(candidates).toHaveLength(2);
		expect(candidates[1]).toBe(stored);
		expect(candidates[0]).toBe(await rotated.hash('user-1', code!));
		expect(candidates[0]).not.toBe(stored);
	});
});
