/**
 * Email sign-in (magic links) through the real `Auth()`, a real SMTP server and a real libSQL
 * store: the link's round trip (request, message, confirmation page, sign-in), new and existing
 * users, events, the `signIn` callback, one-time codes, both session strategies, and the
 * configuration rules.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import type { Session } from '../../src/lib/core/types.js';
import { ORIGIN, SESSION_COOKIE, location, sessionCookiesSet } from './fixtures.js';
import {
	emailSetup,
	expectVerifyRequest,
	followLink,
	lastMessageTo,
	openEmailWorld,
	PROVIDER,
	requestLink,
	type EmailWorld
} from './email-fixtures.js';

const worlds: EmailWorld[] = [];
async function world(): Promise<EmailWorld> {
	const w = await openEmailWorld();
	worlds.push(w);
	return w;
}
afterEach(async () => {
	while (worlds.length) await worlds.pop()!.close();
});

describe.each(['database', 'jwt'] as const)('a link round trip (%s sessions)', (strategy) => {
	test('request → message → confirmation page → sign-in as a new, verified user', async () => {
		const w = await world();
		const s = emailSetup(w, {}, { session: { strategy } });
		const client = s.client();
		const res = await requestLink(client, 'Ann@Example.com', { callbackUrl: '/welcome' });
		expectVerifyRequest(res, ORIGIN);
		expect(sessionCookiesSet(res)).toEqual([]);

		const { message, link } = lastMessageTo(w, 'ann@example.com');
		expect(message.subject).toBe('Sign in to localhost:3000');
		expect(message.from?.text).toContain('no-reply@example.test');
		expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/${PROVIDER}`);
		expect([...link.searchParams.keys()]).toEqual(['callbackUrl', 'token', 'email']);
		expect(link.searchParams.get('email')).toBe('ann@example.com');
		expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{64}$/);

		// Stored hashed: the raw token is nowhere in the table.
		const rows = await w.tokens();
		expect(rows).toHaveLength(1);
		expect(rows[0]!.identifier).toBe('ann@example.com');
		expect(rows[0]!.token).not.toContain(link.searchParams.get('token'));

		const other = s.client();
		const { page, html, signIn } = await followLink(other, link);
		expect(page.status).toBe(200);
		expect(html).toContain('ann@example.com');
		expect(signIn.status).toBe(302);
		expect(location(signIn).href).toBe(`${ORIGIN}/welcome`);
		expect(sessionCookiesSet(signIn)).toEqual([SESSION_COOKIE]);
		const session = (await other.session()) as Session;
		expect(session.user?.email).toBe('ann@example.com');

		const [user] = await w.store.users();
		expect(user?.email).toBe('ann@example.com');
		expect(user?.emailVerified).toBeGreaterThan(Date.now() - 60_000);
		const account = await w.store.adapter.getUserByAccount({ provider: PROVIDER, providerAccountId: 'ann@example.com' });
		expect(account?.id).toBe(user?.id);
		expect(w.events.map((e) => e.name)).toEqual(['createUser', 'linkAccount', 'signIn']);
		expect(w.events[1]!.message.account).toMatchObject({ type: 'email', provider: PROVIDER, providerAccountId: 'ann@example.com' });
		expect(w.events[2]!.message.isNewUser).toBe(true);
		expect(await w.tokens()).toEqual([]);
	});
});
