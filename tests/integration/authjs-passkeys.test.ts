/**
 * Passkeys registered with Auth.js keep working after the switch: Auth.js's WebAuthn registration
 * stores the authenticator (credential id and COSE public key in standard base64, counter, device
 * type, backed-up flag, comma-joined transports) and a `webauthn` account whose
 * `providerAccountId` is that credential id, through `@auth/drizzle-adapter`. The rows here are
 * written through that adapter exactly so (@auth/core 0.41.3, `lib/utils/webauthn-utils.js`; its
 * ceremony itself needs `@simplewebauthn/server` 9, which this repository does not install), for a
 * credential of a software authenticator; kitauth then signs in with it on the adopted database.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { createClient, type Client } from '@libsql/client';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { drizzle } from 'drizzle-orm/libsql';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { defineTables } from '../../node_modules/@auth/drizzle-adapter/lib/sqlite.js';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import type { Session } from '../../src/lib/core/types.js';
import Passkey from '../../src/lib/providers/passkey.js';
import { setup, SESSION_COOKIE } from './fixtures.js';
import { authenticate, authenticator } from './passkey-fixtures.js';

const clients: Client[] = [];
afterEach(() => clients.splice(0).forEach((client) => client.close()));

test('a passkey Auth.js registered signs in on kitauth, and its counter moves on', async () => {
	const client = createClient({ url: `file:${join(mkdtempSync(join(tmpdir(), 'kitauth-authjs-passkey-')), 'auth.db')}` });
	clients.push(client);
	const empty = await generateSQLiteDrizzleJson({});
	const tables = await generateSQLiteDrizzleJson({ ...defineTables() });
	for (const statement of await generateSQLiteMigration(empty, tables)) await client.execute(statement);

	// What Auth.js's registration of this credential stores.
	const device = authenticator();
	const created = device.create({ challenge: 'unused', rp: { id: 'localhost', name: 'App' }, user: { id: 'dXNlcg', name: 'ada@example.com', displayName: 'Ada' } });
	const credential = device.credentials[0]!;
	expect(created.id).toBe(credential.id);
	const credentialID = Buffer.from(credential.id, 'base64url').toString('base64');
	const authjs = DrizzleAdapter(drizzle({ client }));
	const user = await authjs.createUser!({ id: '', name: 'Ada', email: 'ada@example.com', emailVerified: null });
	await authjs.linkAccount!({ userId: user.id, type: 'webauthn', provider: 'passkey', providerAccountId: credentialID });
	await authjs.createAuthenticator!({
		userId: user.id,
		providerAccountId: credentialID,
		credentialID,
		credentialPublicKey: Buffer.from(credential.cose).toString('base64'),
		counter: 0,
		credentialDeviceType: 'singleDevice',
		credentialBackedUp: false,
		transports: 'internal'
	});

	await migrate(client); // the switch
	const s = setup({ adapter: LibSQLAdapter(client), experimental: { enableWebAuthn: true }, providers: [Passkey] });
	const browser = s.client();
	const res = await authenticate(browser, device);
	expect(res.status).toBe(302);
	expect(browser.cookie(SESSION_COOKIE)).toBeDefined();
	expect(((await browser.session()) as Session).user?.email).toBe('ada@example.com');
	expect((await authjs.getAuthenticator!(credentialID))?.counter).toBe(1);
});
