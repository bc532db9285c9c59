/**
 * `emailVerified` from the IdP: an OIDC sign-in whose profile says `email_verified` for the stored
 * user's own address marks that address verified — `updateUser` (and its event) for an existing
 * user whose `emailVerified` is null, `createUser` with the date for a new one — and nothing
 * otherwise. A real OpenID Provider on 127.0.0.1 and the LibSQL adapter on `:memory:`; existing
 * users are written through the adapter as an earlier version (or Auth.js) would have left them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { AdapterError } from '../../src/lib/core/index.js';
import type { Adapter } from '../../src/lib/core/types/adapter.js';
import type { AdapterUser, EventCallbacks, OAuthConfig, User } from '../../src/lib/core/types.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import {
	APP_ORIGIN,
	callbackUri,
	errorPageError,
	explain,
	localProvider,
	oauthApp,
	oauthSignIn,
	sessionCookiesSet
} from '../support/oauth-app.js';
import { openStore, type Store } from './database-fixtures.js';

const HOME = `${APP_ORIGIN}/`;
/** A date an address was verified on long before these tests ran. */
const EARLIER = new Date(1_600_000_000_000);

let idp: TestIdp;
let store: Store;

beforeAll(async () => {
	idp = await startTestIdp({
		redirectUris: [callbackUri('local')],
		// Besides alice (email_verified true) and bob (false): the claim's other shapes.
		accounts: {
			carol: { sub: 'sub-carol-5a9e01', email: '  Carol@Example.TEST ', email_verified: true, name: 'Carol' },
			dave: { sub: 'sub-dave-93b7c2', email: 'dave@example.test', email_verified: 'true', name: 'Dave' },
			erin: { sub: 'sub-erin-1f64d8', email: 'erin@example.test', name: 'Erin' }
		}
	});
});
afterAll(() => idp.close());
beforeEach(async () => {
	store = await openStore('memory');
});
afterEach(() => store.close());

interface Recorded {
	createUser: User[];
	updateUser: User[];
	signIn: User[];
}

function recordEvents(): { events: Partial<EventCallbacks>; recorded: Recorded } {
	const recorded: Recorded = { createUser: [], updateUser: [], signIn: [] };
	return {
		recorded,
		events: {
			createUser: ({ user }) => void recorded.createUser.push(user),
			updateUser: ({ user }) => void recorded.updateUser.push(user),
			signIn: ({ user }) => void recorded.signIn.push(user)
		}
	};
}

/** A stored user, linked to the IdP account of `login` unless `linked` is false. */
async function storedUser(login: string, email: string, emailVerified: Date | null, linked = true): Promise<AdapterUser> {
	const user = await store.adapter.createUser({ id: randomUUID(), email, emailVerified, name: login });
	if (linked) {
		await store.adapter.linkAccount({ userId: user.id, type: 'oidc', provider: 'local', providerAccountId: idp.accounts[login]!.sub });
	}
	return user;
}

/** `emailVerified` of the user row, read past the adapter (ms since the epoch, or null). */
async function verifiedAt(id: string): Promise<number | null | undefined> {
	return (await store.users()).find((u) => u.id === id)?.emailVerified;
}

/** Signs `login` in through the IdP; expects the sign-in to succeed. */
async function signIn(login: string, options: { adapter?: Adapter; provider?: OAuthConfig } = {}) {
	const { events, recorded } = recordEvents();
	const app = oauthApp([options.provider ?? localProvider(idp)], { adapter: options.adapter ?? store.adapter, events });
	const before = Date.now();
	const { res } = await oauthSignIn(app.browser(), 'local', (url) => idp.completeInteraction(url, { login }));
	const after = Date.now();
	return { res, app, recorded, before, after };
}

describe('an existing user whose emailVerified is null', () => {
	test.each([
		['email_verified true, the same address', 'alice', 'alice@example.test'],
		['the same address in another case, padded with spaces', 'carol', 'carol@example.test'],
		['email_verified as the string "true"', 'dave', 'dave@example.test']
	])('%s: emailVerified is set to the sign-in time, updateUser fires once', async (_label, login, email) => {
		const user = await storedUser(login, email, null);
		const { res, app, recorded, before, after } = await signIn(login);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);

		const stored = await verifiedAt(user.id);
		expect(stored).toBeGreaterThanOrEqual(before);
		expect(stored).toBeLessThanOrEqual(after);
		expect(recorded.updateUser).toEqual([{ ...user, emailVerified: new Date(stored!) }]);
		expect(recorded.createUser).toEqual([]);
		// The rest of the sign-in sees the updated user.
		expect(recorded.signIn).toEqual([expect.objectContaining({ id: user.id, emailVerified: new Date(stored!) })]);
	});

	test('dangerous email linking never joins a user whose address is unverified (pre-registration takeover)', async () => {
		// Whoever made this user never proved the address: the IdP's verified owner must not land in it.
		const user = await storedUser('alice', 'alice@example.test', null, false);
		const { res, recorded } = await signIn('alice', { provider: localProvider(idp, { allowDangerousEmailAccountLinking: true }) });
		expect(res.headers.get('location')).toContain('error=OAuthAccountNotLinked');
		expect(await verifiedAt(user.id)).toBeNull();
		expect(recorded.updateUser).toEqual([]);
	});

	test.each([
		['email_verified false', 'bob', 'bob@example.test'],
		['no email_verified claim', 'erin', 'erin@example.test'],
		['another address than the one verified', 'alice', 'alice.old@example.test']
	])('%s: emailVerified stays null, no updateUser', async (_label, login, email) => {
		const user = await storedUser(login, email, null);
		const { res, app, recorded } = await signIn(login);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(await verifiedAt(user.id)).toBeNull();
		expect(recorded.updateUser).toEqual([]);
		expect(recorded.signIn).toEqual([expect.objectContaining({ id: user.id, emailVerified: null })]);
	});

	test('an adapter without updateUser: the sign-in goes on, nothing is written', async () => {
		const user = await storedUser('alice', 'alice@example.test', null);
		const adapter: Adapter = { ...store.adapter };
		delete adapter.updateUser;
		const { res, app, recorded } = await signIn('alice', { adapter });
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(app.errors).toEqual([]);
		expect(await verifiedAt(user.id)).toBeNull();
		expect(recorded.updateUser).toEqual([]);
	});

	test('updateUser failing is an adapter error like any other: the error page, no session, logged', async () => {
		const user = await storedUser('alice', 'alice@example.test', null);
		const adapter: Adapter = {
			...store.adapter,
			updateUser: () => Promise.reject(new Error('disk I/O error'))
		};
		const { res, app, recorded } = await signIn('alice', { adapter });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(errorPageError('Configuration'));
		expect(sessionCookiesSet(res)).toEqual([]);
		const logged = app.errors.find((e) => e instanceof AdapterError);
		expect(logged, explain(app.errors)).toBeDefined();
		expect(explain(app.errors)).toContain('disk I/O error');
		expect(await verifiedAt(user.id)).toBeNull();
		expect(recorded.updateUser).toEqual([]);
		expect(await store.sessions()).toEqual([]);
	});
});

test('an existing user already verified: the date is kept, no updateUser', async () => {
	const user = await storedUser('alice', 'alice@example.test', EARLIER);
	const { res, app, recorded } = await signIn('alice');
	expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
	expect(await verifiedAt(user.id)).toBe(EARLIER.getTime());
	expect(recorded.updateUser).toEqual([]);
});

describe('a new user', () => {
	test('email_verified true: created with emailVerified at the sign-in time; createUser only', async () => {
		const { res, app, recorded, before, after } = await signIn('alice');
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		const [row] = await store.users();
		expect(row?.email).toBe('alice@example.test');
		expect(row?.emailVerified).toBeGreaterThanOrEqual(before);
		expect(row?.emailVerified).toBeLessThanOrEqual(after);
		expect(recorded.createUser).toEqual([expect.objectContaining({ id: row?.id, emailVerified: new Date(row!.emailVerified!) })]);
		expect(recorded.updateUser).toEqual([]);
	});

	test.each([
		['email_verified false', 'bob'],
		['no email_verified claim', 'erin']
	])('%s: created with emailVerified null', async (_label, login) => {
		const { res, app, recorded } = await signIn(login);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		const [row] = await store.users();
		expect(row?.emailVerified).toBeNull();
		expect(recorded.createUser).toEqual([expect.objectContaining({ id: row?.id, emailVerified: null })]);
		expect(recorded.updateUser).toEqual([]);
	});
});
