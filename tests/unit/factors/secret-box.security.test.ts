import { describe, expect, it } from 'vitest';
import { createKeyring, openJwe, sealJwe } from '../../../src/lib/core/crypto/index.js';
import { openSecret, sealSecret } from '../../../src/lib/core/factors/secret-box.js';
import { newTotpSecret } from '../../../src/lib/core/factors/totp.js';

const NEW = 'new-secret-0123456789abcdef0123456789';
const OLD = 'old-secret-0123456789abcdef0123456789';

describe('TOTP secrets at rest', () => {
	it('are sealed (no trace of the secret) and open again under the same secret, current', async () => {
		const keyring = createKeyring([NEW]);
		const secret = newTotpSecret();
		const sealed = await sealSecret(keyring, secret);
		expect(sealed.split('.')).toHaveLength(5);
		expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'));
		expect(await openSecret(keyring, sealed)).toEqual({ secret, stale: false });
	});

	it('open under a rotated list, reported stale so they are sealed again; not once the old secret is gone', async () => {
		const secret = newTotpSecret();
		const sealed = await sealSecret(createKeyring([OLD]), secret);
		expect(await openSecret(createKeyring([NEW, OLD]), sealed)).toEqual({ secret, stale: true });
		expect(await openSecret(createKeyring([NEW]), sealed)).toBeUndefined();
	});

	it('refuse tampered seals, other salts and garbage', async () => {
		const keyring = createKeyring([NEW]);
		const sealed = await sealSecret(keyring, newTotpSecret());
		const parts = sealed.split('.');
		parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'BB' : 'AA');
		expect(await openSecret(keyring, parts.join('.'))).toBeUndefined();
		// A token kitauth seals for another purpose (a cookie's salt) is not a TOTP secret, nor the reverse.
		const cookie = await sealJwe(keyring, 'authjs.session-token', Buffer.from(newTotpSecret()).toString('base64url'));
		expect(await openSecret(keyring, cookie)).toBeUndefined();
		expect(await openJwe(keyring, 'authjs.session-token', sealed)).toBeNull();
		for (const bad of ['', 'a.b.c.d.e', 'x'.repeat(5000)]) expect(await openSecret(keyring, bad)).toBeUndefined();
	});
});
