/**
 * What a conformance run works on, and fresh, unique fixtures for every test (tests never depend
 * on one another's rows, so any one of them can run alone).
 */
import type { Adapter } from '../../../src/lib/core/types/adapter.js';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from '../../../src/lib/core/types/models.js';

/** Raw reads that bypass the adapter, each returning the row in the model's shape or null. */
export interface ConformanceDb {
	user(id: string): Promise<AdapterUser | null>;
	session(sessionToken: string): Promise<AdapterSession | null>;
	account(key: { provider: string; providerAccountId: string }): Promise<AdapterAccount | null>;
	verificationToken(key: { identifier: string; token: string }): Promise<VerificationToken | null>;
	authenticator(credentialID: string): Promise<AdapterAuthenticator | null>;
}

export interface ConformanceTarget {
	adapter: Adapter;
	db: ConformanceDb;
	cleanup?: () => unknown;
}

/** The adapter under test, with every method required (a missing one fails the first test). */
export type Target = { adapter: Required<Adapter>; db: ConformanceDb };

export const uid = (): string => crypto.randomUUID();

/** Dates with odd milliseconds: a store that rounds to seconds fails the comparisons. */
export function msDate(offsetMs: number): Date {
	return new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123) + offsetMs);
}

export function pastDate(): Date {
	return new Date(Date.UTC(2001, 1, 3, 4, 5, 6, 789));
}

/** A user as Auth.js core passes it to `createUser`: without an id. */
export function newUser(): Omit<AdapterUser, 'id'> {
	const id = uid();
	return {
		name: `User ${id.slice(0, 8)}`,
		email: `${id}@example.com`,
		emailVerified: msDate(1),
		image: `https://example.com/${id}.png`
	};
}

export async function createUser(target: Target): Promise<AdapterUser> {
	return target.adapter.createUser(newUser() as AdapterUser);
}

/** A sha256-like hex string: tokens reach the adapter hashed and must be stored as given. */
export function hashLike(): string {
	return (uid() + uid()).replaceAll('-', '').slice(0, 64);
}

export function newSession(userId: string, offsetMs = 0): AdapterSession {
	return { sessionToken: hashLike(), userId, expires: msDate(86_400_000 + offsetMs) };
}

export function newAccount(userId: string, provider = 'github'): AdapterAccount {
	return {
		userId,
		type: 'oauth',
		provider,
		providerAccountId: uid(),
		access_token: `at-${uid()}`,
		refresh_token: `rt-${uid()}`,
		id_token: `it-${uid()}`,
		scope: 'openid email profile',
		token_type: 'bearer',
		expires_at: 1_999_999_999,
		session_state: `ss-${uid()}`
	};
}

export function newToken(identifier = `${uid()}@example.com`): VerificationToken {
	return { identifier, token: hashLike(), expires: msDate(600_000) };
}

export function newAuthenticator(userId: string): AdapterAuthenticator {
	return {
		userId,
		credentialID: btoa(uid()).replaceAll('=', ''),
		credentialPublicKey: btoa(`key-${uid()}`),
		providerAccountId: uid(),
		counter: 0,
		credentialDeviceType: 'multiDevice',
		credentialBackedUp: true,
		transports: 'internal,hybrid'
	};
}

/** The rows an OAuth account must keep, field by field. */
export function withoutUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
