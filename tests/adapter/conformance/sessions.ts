import { expect, test } from 'vitest';
import type { AdapterSession } from '../../../src/lib/core/types/models.js';
import { createUser, msDate, newSession, pastDate, uid, type Target } from './fixtures.js';

export function sessionTests(target: () => Target): void {
	test('createSession stores the (already hashed) token exactly as given', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const input = newSession(user.id);
		const session = await adapter.createSession(input);
		expect(session).toMatchObject(input);
		expect(await db.session(input.sessionToken)).toMatchObject(input);
	});

	test('createSession keeps kitauth’s createdAt and userAgent', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const input: AdapterSession = {
			...newSession(user.id),
			createdAt: msDate(-86_400_001),
			userAgent: 'Firefox 140 on Linux'
		};
		expect(await adapter.createSession(input)).toMatchObject(input);
		expect(await db.session(input.sessionToken)).toMatchObject(input);
	});

	test('getSessionAndUser: null for an unknown token, the session and its user otherwise', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		const session = await adapter.createSession(newSession(user.id));
		expect(await adapter.getSessionAndUser('invalid-token')).toBeNull();
		expect(await adapter.getSessionAndUser(session.sessionToken.toUpperCase())).toBeNull();
		expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session, user });
	});

	test('dates round-trip to the millisecond', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const dates = [msDate(1), msDate(-122), pastDate(), new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999))];
		for (const expires of dates) {
			const input = { ...newSession(user.id), expires };
			await adapter.createSession(input);
			const read = await adapter.getSessionAndUser(input.sessionToken);
			expect(read?.session.expires.getTime()).toBe(expires.getTime());
			expect((await db.session(input.sessionToken))?.expires.getTime()).toBe(expires.getTime());
		}
	});

	test('updateSession changes expires exactly; null or undefined for an unknown token', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const session = await adapter.createSession(newSession(user.id));
		const expires = msDate(172_800_007);
		expect(expires.getTime()).not.toBe(session.expires.getTime());
		const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires });
		if (updated) expect(updated).toEqual({ ...session, expires });
		expect(await db.session(session.sessionToken)).toEqual({ ...session, expires });
		expect((await adapter.updateSession({ sessionToken: uid(), expires })) ?? null).toBeNull();
		expect(await db.session(session.sessionToken)).toEqual({ ...session, expires });
	});

	test('concurrent updateSession calls leave one complete, consistent row', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const session = await adapter.createSession(newSession(user.id));
		const candidates = Array.from({ length: 20 }, (_, i) => msDate(1_000 * (i + 1) + i));
		await Promise.all(
			candidates.map((expires) => adapter.updateSession({ sessionToken: session.sessionToken, expires }))
		);
		const row = await db.session(session.sessionToken);
		expect(row).toMatchObject({ sessionToken: session.sessionToken, userId: user.id });
		expect(candidates.map((d) => d.getTime())).toContain(row?.expires.getTime());
	});

	test('deleteSession removes the row and returns the deleted session', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const session = await adapter.createSession(newSession(user.id));
		const deleted = await adapter.deleteSession(session.sessionToken);
		expect(deleted).toEqual(session);
		expect(await db.session(session.sessionToken)).toBeNull();
		expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
		expect((await adapter.deleteSession(session.sessionToken)) ?? null).toBeNull();
	});

	test('listSessionsByUserId: the user’s sessions only, [] for an unknown user', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		const other = await createUser(target());
		const mine = [
			await adapter.createSession(newSession(user.id, 1)),
			await adapter.createSession(newSession(user.id, 2))
		];
		await adapter.createSession(newSession(other.id));
		const listed = await adapter.listSessionsByUserId(user.id);
		expect(listed).toHaveLength(2);
		expect(listed).toEqual(expect.arrayContaining(mine));
		expect(await adapter.listSessionsByUserId(uid())).toEqual([]);
	});

	test('deleteSessionsByUserId deletes a user’s sessions, or all but one, and counts them', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const other = await createUser(target());
		const sessions = await Promise.all(
			[1, 2, 3].map((i) => adapter.createSession(newSession(user.id, i)))
		);
		const [keep, ...rest] = sessions as [AdapterSession, ...AdapterSession[]];
		const theirs = await adapter.createSession(newSession(other.id));

		expect(await adapter.deleteSessionsByUserId(user.id, keep.sessionToken)).toBe(2);
		for (const session of rest) expect(await db.session(session.sessionToken)).toBeNull();
		expect(await db.session(keep.sessionToken)).toEqual(keep);
		expect(await db.session(theirs.sessionToken)).toEqual(theirs);

		expect(await adapter.deleteSessionsByUserId(user.id)).toBe(1);
		expect(await db.session(keep.sessionToken)).toBeNull();
		expect(await adapter.deleteSessionsByUserId(uid())).toBe(0);
		expect(await db.session(theirs.sessionToken)).toEqual(theirs);
	});
}
