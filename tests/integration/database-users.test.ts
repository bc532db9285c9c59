/**
 * Users a provider gives no email for: each is its own stored user (the unique email index must
 * not make the second one fail), and no sign-in is ever matched to them by an empty email.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { Session } from '../../src/lib/core/types.js';
import { dbSetup, openStore, STORE_KINDS, type Store } from './database-fixtures.js';
import { passwordProvider, SESSION_COOKIE } from './fixtures.js';

const stores: Store[] = [];
afterEach(() => {
	while (stores.length) stores.pop()!.close();
});

describe.each(STORE_KINDS)('users without an email (%s)', (kind) => {
	test('two users without an email both sign in, each as themselves', async () => {
		const db = await openStore(kind);
		stores.push(db);
		const provider = passwordProvider({
			// Any password; the username names the user, who has no email.
			authorize: ({ username }) => (typeof username === 'string' ? { id: `id-${username}`, name: username } : null)
		});
		const s = dbSetup(db, { providers: [provider] });
		for (const name of ['ann', 'bob']) {
			const client = s.client();
			const res = await client.signInWithCredentials('credentials', { username: name, password: 'x' });
			expect(res.status).toBe(302);
			expect(client.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
			expect(((await client.session()) as Session).user?.name).toBe(name);
		}
		const users = await db.users();
		expect(users.map((u) => [u.id, u.email])).toEqual([
			['id-ann', null],
			['id-bob', null]
		]);
		expect(await db.adapter.getUserByEmail('')).toBeNull();
		expect((await db.adapter.getUser('id-ann'))?.email).toBe('');
	});
});
