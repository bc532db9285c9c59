import type { AuthContext } from '../context.js';
import type { SessionRead } from './types.js';

/** An account linked to the signed-in user, as an app may show it: no tokens. */
export interface LinkedAccount {
	provider: string;
	type: string;
	providerAccountId: string;
}

/** The signed-in user's linked accounts (needs an adapter with `listAccountsByUserId`). */
export async function linkedAccounts(ctx: AuthContext, read: SessionRead): Promise<LinkedAccount[]> {
	const userId = read.user?.id ?? read.token?.sub;
	const list = ctx.options.adapter?.listAccountsByUserId;
	if (!read.session || !userId || !list) return [];
	const accounts = await list(userId);
	return accounts.map(({ provider, type, providerAccountId }) => ({ provider, type, providerAccountId }));
}
