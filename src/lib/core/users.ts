import { randomUUID, sha256 } from './crypto/index.js';
import { need } from './adapter.js';
import type { AccountNotLinked, OAuthAccountNotLinked } from './errors.js';
import type { AuthContext } from './context.js';
import type { Adapter } from './types/adapter.js';
import type { Account, AdapterAccount, AdapterUser, Profile, User } from './types/models.js';

/** Who signed in, once the data layer has been consulted. */
export interface ResolvedUser {
	user: User & { id: string };
	isNewUser: boolean;
}

/** What a flow proved, as user resolution needs it. */
export interface ProvenIdentity {
	user: User & { id: string };
	account: Account;
	profile?: Profile;
	/** The provider lets an account join an existing user with the same email. */
	allowDangerousEmailAccountLinking?: boolean;
}

/**
 * How the user of a sign-in is found, created or linked. What a flow proves decides it — an
 * account at a provider, a mailbox, or the app's own word — so each flow declares its resolution
 * (`Flow.users`) and `login.ts` asks it instead of branching on the account's type.
 */
export interface UserResolution {
	/** Does a user already signed in matter: is a new account linked to them? */
	readonly linksToSignedIn: boolean;
	/** The stored user the proof already belongs to, if any (the `signIn` callback sees it). */
	existing(ctx: AuthContext, account: Account): Promise<AdapterUser | null>;
	/** Finds, creates or links the user, once the `signIn` callback allowed the sign-in. */
	resolve(ctx: AuthContext, identity: ProvenIdentity, known: AdapterUser | null, currentUserId: string | undefined): Promise<ResolvedUser>;
}

/**
 * An account at a provider (OAuth, OIDC, a passkey), with Auth.js's linking rules:
 * - account known: sign in as its owner, unless someone else is signed in (→ `notLinked`);
 * - new account while signed in: link it to the current user;
 * - new account, signed out, email already taken: refuse (`notLinked`) unless the provider allows
 *   dangerous email linking and the stored user's address is verified;
 * - otherwise: create the user and link the account.
 * A provider that vouches for the user's email marks it verified (`verifiedBy`): on the new user,
 * or on an existing one through `updateUser`. Without an adapter, the user's id is derived from the
 * account (stable across sign-ins, unique across providers).
 */
export function byLinkedAccount(notLinked: typeof OAuthAccountNotLinked | typeof AccountNotLinked): UserResolution {
	return {
		linksToSignedIn: true,
		existing: async (ctx, account) =>
			ctx.options.adapter
				? need(ctx.options.adapter, 'getUserByAccount').getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
				: null,
		async resolve(ctx, identity, known, currentUserId) {
			const { adapter } = ctx.options;
			if (!adapter) return storelessUser(identity);
			return accountUser(ctx, adapter, identity, known, currentUserId, notLinked);
		}
	};
}

/**
 * A mailbox (an email link or code): its user is whoever has that address, signed in or not (as in
 * Auth.js: the mailbox decides); see `emailUser`.
 */
export const byMailbox: UserResolution = {
	linksToSignedIn: true,
	existing: async (ctx, account) =>
		ctx.options.adapter ? need(ctx.options.adapter, 'getUserByEmail').getUserByEmail(account.providerAccountId) : null,
	async resolve(ctx, identity, known) {
		const { adapter } = ctx.options;
		return adapter ? emailUser(ctx, adapter, identity.account, known) : storelessUser(identity);
	}
};

/**
 * The app's own word (credentials: `authorize()` returned the user): no accounts, no linking. On
 * database sessions the user is found by id or email, or mirrored into the store so the session row
 * has a user to point at; otherwise the user is signed in as `authorize()` returned them.
 */
export const byApp: UserResolution = {
	linksToSignedIn: false,
	existing: async () => null,
	async resolve(ctx, identity) {
		const { adapter } = ctx.options;
		if (!adapter || ctx.options.session.strategy !== 'database') return { user: identity.user, isNewUser: false };
		return credentialsUser(ctx, adapter, identity.user);
	}
};

/** No store: a provider's user keeps one stable id across sign-ins, unique across providers. */
async function storelessUser({ user, account }: ProvenIdentity): Promise<ResolvedUser> {
	return { user: { ...user, id: await accountUserId(account) }, isNewUser: false };
}

/** The user of an account at a provider (see {@link byLinkedAccount}). */
async function accountUser(
	ctx: AuthContext,
	adapter: Adapter,
	identity: ProvenIdentity,
	known: AdapterUser | null,
	currentUserId: string | undefined,
	notLinked: typeof OAuthAccountNotLinked | typeof AccountNotLinked
): Promise<ResolvedUser> {
	const { events } = ctx.options;
	const { user, account, profile } = identity;
	const existing = async (owner: AdapterUser): Promise<ResolvedUser> => ({
		user: await markEmailVerified(ctx, adapter, owner, profile),
		isNewUser: false
	});
	if (known) {
		if (currentUserId && known.id !== currentUserId) {
			throw new notLinked('The account is already linked to another user');
		}
		return existing(known);
	}
	const store = need(adapter, 'getUser', 'getUserByEmail', 'createUser', 'linkAccount');
	const link = async (owner: AdapterUser) => {
		const linked: AdapterAccount = { ...account, userId: owner.id, type: account.type as AdapterAccount['type'] };
		await store.linkAccount(linked);
		await events.linkAccount?.({ user: owner, account: linked, profile: user });
	};

	if (currentUserId) {
		const current = await store.getUser(currentUserId);
		if (current) {
			await link(current);
			return existing(current);
		}
	}
	const email = typeof user.email === 'string' ? user.email.toLowerCase() : undefined;
	const byEmail = email ? await store.getUserByEmail(email) : null;
	if (byEmail) {
		// Joining by email needs both sides to vouch for the address: the provider (dangerous
		// linking allowed) and the stored user (a verified address). An unverified sign-up with
		// someone else's address (a passkey, say) must not collect their account when they come.
		if (identity.allowDangerousEmailAccountLinking !== true || !byEmail.emailVerified) {
			throw new notLinked('Another account already uses this email');
		}
		await link(byEmail);
		return existing(byEmail);
	}
	const created = await store.createUser(newUser(user, email, verifiedBy(profile, email) ? new Date() : null));
	await events.createUser?.({ user: created });
	await link(created);
	return { user: created, isNewUser: true };
}

async function credentialsUser(ctx: AuthContext, adapter: Adapter, user: User): Promise<ResolvedUser> {
	const store = need(adapter, 'getUser', 'getUserByEmail', 'createUser');
	const byId = user.id ? await store.getUser(user.id) : null;
	if (byId) return { user: byId, isNewUser: false };
	const email = typeof user.email === 'string' ? user.email.toLowerCase() : undefined;
	const byEmail = email ? await store.getUserByEmail(email) : null;
	if (byEmail) return { user: byEmail, isNewUser: false };
	// Mirror the app's user under the app's own id, so the session points at the same identity.
	let created: AdapterUser;
	try {
		created = await store.createUser({ ...newUser(user, email, null), ...(user.id ? { id: user.id } : {}) });
	} catch (error) {
		// Two first sign-ins at once: the other one created the user (unique id/email). Use it.
		const winner = (user.id ? await store.getUser(user.id) : null) ?? (email ? await store.getUserByEmail(email) : null);
		if (winner) return { user: winner, isNewUser: false };
		throw error;
	}
	await ctx.options.events.createUser?.({ user: created });
	return { user: created, isNewUser: true };
}

/**
 * The user of an email sign-in: whoever has the address (signed in or not, as in Auth.js: the
 * mailbox decides), with `emailVerified` set the first time; else a new user, verified now. The
 * email account (provider, address) is linked to them once. Two first sign-ins at once: the loser
 * of the unique email (or account) takes the winner's row.
 */
async function emailUser(ctx: AuthContext, adapter: Adapter, account: Account, known: AdapterUser | null): Promise<ResolvedUser> {
	const store = need(adapter, 'getUserByEmail', 'createUser', 'updateUser', 'getUserByAccount', 'linkAccount');
	const { events } = ctx.options;
	const email = account.providerAccountId;
	let user = known;
	let isNewUser = false;
	if (!user) {
		try {
			user = await store.createUser(newUser({ email }, email, new Date()));
			isNewUser = true;
		} catch (error) {
			user = await store.getUserByEmail(email);
			if (!user) throw error;
		}
		if (isNewUser) await events.createUser?.({ user });
	} else if (!user.emailVerified) {
		user = await store.updateUser({ id: user.id, emailVerified: new Date() });
		await events.updateUser?.({ user });
	}
	const owner = await store.getUserByAccount({ provider: account.provider, providerAccountId: email });
	if (!owner) {
		const linked: AdapterAccount = { ...account, type: 'email', userId: user.id };
		try {
			await store.linkAccount(linked);
			await events.linkAccount?.({ user, account: linked, profile: user });
		} catch (error) {
			// Linked meanwhile by a parallel sign-in: fine; anything else is a real failure.
			if (!(await store.getUserByAccount({ provider: account.provider, providerAccountId: email }))) throw error;
		}
	}
	return { user, isNewUser };
}

/** A UUID-shaped id derived from (provider, account id): stable, and no raw provider id in tokens. */
async function accountUserId(account: Account): Promise<string> {
	const hex = await sha256(`${account.provider}\u0000${account.providerAccountId}`, 'hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A new stored user: a fresh id (the provider's id lives on the account). */
function newUser(user: User, email: string | undefined, emailVerified: Date | null): AdapterUser {
	return { ...user, id: randomUUID(), email: email ?? '', emailVerified };
}

/**
 * Does the provider's profile vouch for this address? Only the OIDC `email_verified` claim counts
 * (`true`, or the string "true" some IdPs send), and only for the same address, trimmed and
 * compared case-insensitively: a claim about another address proves nothing about this one.
 */
function verifiedBy(profile: Profile | undefined, email: string | null | undefined): boolean {
	const claim: unknown = profile?.email_verified;
	if (claim !== true && claim !== 'true') return false;
	const asserted = normalizedEmail(profile?.email);
	return asserted !== undefined && asserted === normalizedEmail(email);
}

function normalizedEmail(email: unknown): string | undefined {
	const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
	return normalized || undefined;
}

/**
 * An existing user whose provider has now verified their address gets `emailVerified` set (the
 * `updateUser` event), as an email-link sign-in would: the IdP checked the mailbox, so apps that
 * gate on `emailVerified` need not send a link of their own. Only ever set, never cleared or moved;
 * skipped when the adapter has no `updateUser` (optional: this is a bonus, not part of sign-in).
 */
async function markEmailVerified(ctx: AuthContext, adapter: Adapter, user: AdapterUser, profile: Profile | undefined): Promise<AdapterUser> {
	if (user.emailVerified || typeof adapter.updateUser !== 'function' || !verifiedBy(profile, user.email)) return user;
	const updated = await adapter.updateUser({ id: user.id, emailVerified: new Date() });
	await ctx.options.events.updateUser?.({ user: updated });
	return updated;
}
