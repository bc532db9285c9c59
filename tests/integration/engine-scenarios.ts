/**
 * What must hold on every engine whatever the interleaving, because each primitive is one
 * conditional statement on the shared store, run against two app instances that share one
 * database (two OS processes over HTTP, or two configurations in this process):
 * - 50 uses at once of one magic link, spread over both: exactly one session;
 * - 100 wrong passwords at once for one account: exactly the account's limit admitted;
 * - a session ended through one instance is refused at once by the other.
 */
import { expect, test } from 'vitest';
import type { Session } from '../../src/lib/core/types.js';
import { TestClient } from '../support/client.js';
import { ACCOUNT_LIMIT } from './engine-app.js';
import { followLink, requestLink } from './email-fixtures.js';
import { ALICE, ALICE_LOGIN, ORIGIN, SESSION_COOKIE, sessionCookiesSet } from './fixtures.js';

export { ACCOUNT_LIMIT } from './engine-app.js';

type Handler = (request: Request) => Promise<Response>;

export interface EngineInstances {
	label: string;
	/** Each instance, as a handler of the site's requests. */
	instances: Handler[];
	/** The link an instance sent to `email`. */
	link(email: string): Promise<string>;
	sessionRows(): Promise<number>;
	/** The names of the errors the instances logged so far. */
	logged(): string[];
}

/** A browser whose requests go to `instances[route.to]`. */
export function routedBrowser(instances: Handler[], first = 0): { client: TestClient; route: { to: number } } {
	const route = { to: first };
	return { client: new TestClient((request) => instances[route.to]!(request), { origin: ORIGIN }), route };
}

export function engineScenarios(setup: () => EngineInstances): void {
	const browser = (i: number) => routedBrowser(setup().instances, i % 2).client;

	test('50 uses at once of one magic link, over both instances: exactly one session', async () => {
		const { label, link: linkTo, sessionRows, logged } = setup();
		const email = `link-${label}@example.com`;
		expect((await requestLink(browser(0), email, {}, 'email')).status).toBe(302);
		const link = await linkTo(email);
		expect(link).toContain('/auth/callback/email');
		const before = await sessionRows();
		const loggedBefore = logged().length;
		const uses = await Promise.all(
			Array.from({ length: 50 }, async (_, i) => {
				const client = browser(i);
				const { signIn } = await followLink(client, new URL(link));
				return { signIn, cookie: client.cookie(SESSION_COOKIE) };
			})
		);
		const winners = uses.filter(({ cookie }) => cookie !== undefined);
		expect(winners).toHaveLength(1);
		expect(sessionCookiesSet(winners[0]!.signIn)).toEqual([SESSION_COOKIE]);
		const losers = uses.filter(({ cookie }) => cookie === undefined).map(({ signIn }) => signIn.headers.get('location'));
		expect(losers).toEqual(Array.from({ length: 49 }, () => `${ORIGIN}/auth/error?error=Verification`));
		expect((await sessionRows()) - before).toBe(1);
		// What the instances logged: the 49 refusals, nothing else.
		expect(logged().slice(loggedBefore)).toEqual(Array.from({ length: 49 }, () => 'Verification'));
	});

	test(`100 wrong passwords at once for one account, over both instances: exactly ${ACCOUNT_LIMIT} admitted`, async () => {
		const { label, logged } = setup();
		const loggedBefore = logged().length;
		const answers = await Promise.all(
			Array.from({ length: 100 }, (_, i) => browser(i).signInWithCredentials('credentials', { username: `Shared-${label}`, password: `wrong-${i}` }))
		);
		const admitted = answers.filter((res) => res.status === 302 && res.headers.get('location')?.includes('error=CredentialsSignin'));
		const refused = answers.filter((res) => res.status === 429);
		expect(admitted).toHaveLength(ACCOUNT_LIMIT);
		expect(refused).toHaveLength(100 - ACCOUNT_LIMIT);
		// Counted by the shared store every time (never answered from one instance's memory).
		expect(logged().slice(loggedBefore)).not.toContain('RateLimitStoreError');
	});

	test('a session ended through one instance is refused at once by the other', async () => {
		const { instances } = setup();
		const { client, route } = routedBrowser(instances, 0);
		expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		const token = client.cookie(SESSION_COOKIE)!;
		route.to = 1;
		expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
		route.to = 0;
		expect((await client.postForm('signout')).status).toBe(302);
		// The old cookie, replayed on the other instance the moment after.
		const replay = routedBrowser(instances, 1).client;
		replay.setCookie(SESSION_COOKIE, token);
		expect(await (await replay.get('session')).json()).toBeNull();
	});
}
