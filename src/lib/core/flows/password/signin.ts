/**
 * Sign-in with a password kept by kitauth (`Password()`): the user and hash of the submitted
 * email in one query, the password checked against that hash or, for an unknown address, against
 * a decoy hash of the same cost, so the answer and its time do not say whether the address is
 * registered. A hash made with older parameters is replaced by a new one on success.
 */
import { need } from '../../adapter.js';
import type { AuthContext } from '../../context.js';
import { CredentialsSignin } from '../../errors.js';
import type { Identity } from '../../login.js';
import { decoyHash } from '../../passwords/hash.js';
import type { RequestInternal } from '../../types/internal.js';
import type { AdapterUser } from '../../types/models.js';
import type { CredentialsConfig, PasswordOptions } from '../../types/provider.js';
import { submittedEmail, submittedPassword } from './fields.js';

export async function passwordIdentity(req: RequestInternal, ctx: AuthContext, provider: CredentialsConfig, options: PasswordOptions): Promise<Identity> {
	const email = submittedEmail(req.body.email);
	// Longer than any password sign-up accepts (see `passwordProblem`): refused before hashing.
	const password = submittedPassword(req.body.password, options.rules.maxLength * 8);
	const found = await checkedPassword(ctx, options, email, password);
	if (!found || !password) throw new CredentialsSignin('Wrong email or password');
	// Only said to whoever knows the password: the address is registered, and not yet confirmed.
	if (options.requireVerifiedEmail && !found.user.emailVerified) {
		const unverified = new CredentialsSignin('The email address is not confirmed yet');
		unverified.code = 'email-unverified';
		throw unverified;
	}
	const user = await rehashed(ctx, found.user, found.passwordHash, password, options);
	return {
		user,
		account: { type: 'credentials', provider: provider.id, providerAccountId: user.id },
		credentials: { email }
	};
}

/**
 * The user and hash of `email` if `password` matches the hash, else null. An unknown address (or
 * none) is checked against a decoy hash of the same cost, so the time does not say which it was.
 * Sign-in and the signed-in user's proof (`account-proof.ts`) both check passwords here.
 */
export async function checkedPassword(
	ctx: AuthContext,
	{ hasher }: PasswordOptions,
	email: string | undefined,
	password: string | undefined
): Promise<{ user: AdapterUser; passwordHash: string } | null> {
	const store = need(ctx.options.adapter ?? {}, 'getPasswordUser');
	const found = email ? await store.getPasswordUser(email) : null;
	const matches = await hasher.verify(password ?? '', found?.passwordHash ?? (await decoyHash(hasher)));
	return found && password && matches ? found : null;
}

/**
 * A hash with other parameters than the hasher's (raised since it was made) is replaced now, while
 * the password is at hand. Only if it is still the stored one; a failure to store it is logged and
 * does not fail the sign-in (the next one tries again).
 */
async function rehashed(ctx: AuthContext, user: AdapterUser, stored: string, password: string, { hasher }: PasswordOptions): Promise<AdapterUser> {
	if (!hasher.needsRehash(stored)) return user;
	try {
		const store = need(ctx.options.adapter ?? {}, 'updatePasswordHash');
		await store.updatePasswordHash(user.id, await hasher.hash(password), stored);
	} catch (error) {
		ctx.options.logger.error(error as Error);
	}
	return user;
}
