/**
 * The signed-in user's linked accounts, listed and unlinked. Beside the session layer, not in it:
 * whether a user keeps a way to sign in asks the flow table, and the session layer is below the flows.
 */
import { need } from './adapter.js';
import type { AuthContext } from './context.js';
import type { SessionsEnded } from './session/end.js';
import { MissingAdapter } from './errors.js';
import { flowOf } from './flows/index.js';
import type { AdapterAccount } from './types/models.js';
import type { SessionRead } from './session/types.js';
import type { LinkedAccount } from '../shared/views.js';

export type { LinkedAccount };

/** What the app knows about the user's ways to sign in that kitauth cannot see. */
export interface SignInMethodsHint {
	/**
	 * The user can also sign in in a way no linked account records (e.g. a password your
	 * credentials provider checks). Without it, only linked accounts and email sign-in count.
	 */
	otherSignIn?: boolean;
}

export type UnlinkResult =
	| {
			ok: true;
			account: Omit<LinkedAccount, 'unlinkable'>;
			/** The user's sessions ended for it (`session.endOnCredentialChange`); cookies to set. */
			sessionsEnded?: SessionsEnded;
	  }
	| {
			ok: false;
			/** Signed out; no such linked account; or it is the last way to sign in. */
			reason: 'signed-out' | 'not-linked' | 'last-sign-in-method';
	  };

function userIdOf(read: SessionRead): string | undefined {
	return read.session ? (read.user?.id ?? read.token?.sub ?? undefined) : undefined;
}

/**
 * Can the user still sign in once `removed` is unlinked? Another linked account (OAuth, email,
 * passkey) does; so does a provider that keeps a way in of its own (an email provider when the
 * user has an address, `Password()` when their password is stored: `Flow.keepsSignIn`); so does
 * whatever the app vouches for (`otherSignIn`).
 */
async function anotherWayRemains(
	ctx: AuthContext,
	read: SessionRead,
	accounts: readonly AdapterAccount[],
	removed: AdapterAccount,
	hint: SignInMethodsHint
): Promise<boolean> {
	if (hint.otherSignIn) return true;
	if (accounts.some((a) => a !== removed)) return true;
	return keepsSignIn(ctx, read);
}

/** Whether a configured provider gives the user a way in without any linked account. */
async function keepsSignIn(ctx: AuthContext, read: SessionRead): Promise<boolean> {
	const id = userIdOf(read);
	if (!id) return false;
	const user = { id, email: read.user?.email ?? read.session?.user?.email };
	for (const provider of ctx.options.providers) if (await flowOf(provider).keepsSignIn?.(ctx, provider, user)) return true;
	return false;
}

/** The signed-in user's linked accounts (needs an adapter with `listAccountsByUserId`). */
export async function linkedAccounts(ctx: AuthContext, read: SessionRead, hint: SignInMethodsHint = {}): Promise<LinkedAccount[]> {
	const userId = userIdOf(read);
	const list = ctx.options.adapter?.listAccountsByUserId;
	if (!userId || !list) return [];
	const accounts = await list(userId);
	// The same answer for each of them (which one goes does not matter): asked once.
	const remains = accounts.length > 0 && (await anotherWayRemains(ctx, read, accounts, accounts[0]!, hint));
	return accounts.map((account) => ({
		provider: account.provider,
		type: account.type,
		providerAccountId: account.providerAccountId,
		unlinkable: remains
	}));
}

/**
 * Unlinks one of the signed-in user's accounts (by provider, and by `providerAccountId` when the
 * user has several with that provider), unless it is the last way to sign in. Needs an adapter with
 * `listAccountsByUserId` and `unlinkAccount`.
 */
export async function unlinkAccount(
	ctx: AuthContext,
	read: SessionRead,
	provider: string,
	options: SignInMethodsHint & { providerAccountId?: string } = {}
): Promise<UnlinkResult> {
	const userId = userIdOf(read);
	if (!userId) return { ok: false, reason: 'signed-out' };
	if (!ctx.options.adapter) throw new MissingAdapter('Unlinking accounts needs an adapter.');
	const adapter = need(ctx.options.adapter, 'listAccountsByUserId', 'unlinkAccount');
	const accounts = await adapter.listAccountsByUserId(userId);
	const matching = accounts.filter(
		(a) => a.provider === provider && (options.providerAccountId === undefined || a.providerAccountId === options.providerAccountId)
	);
	// Several accounts of one provider and no id to choose: refuse rather than guess.
	if (matching.length !== 1) return { ok: false, reason: 'not-linked' };
	const target = matching[0]!;
	if (!(await anotherWayRemains(ctx, read, accounts, target, options))) return { ok: false, reason: 'last-sign-in-method' };
	await adapter.unlinkAccount({ provider: target.provider, providerAccountId: target.providerAccountId });
	return { ok: true, account: { provider: target.provider, type: target.type, providerAccountId: target.providerAccountId } };
}
