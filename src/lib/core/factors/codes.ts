/**
 * Checking second-factor codes against a user's record, and setting TOTP up. Every acceptance is
 * recorded by one conditional statement of the store before it counts: the TOTP step (later than
 * the last one accepted), the backup code (removed if present), the set-up (turned on while off,
 * with the secret the code was checked against). So a code seen by someone else, replayed, or
 * sent twice at once is accepted once.
 */
import type { AuthContext } from '../context.js';
import { InvalidTwoFactorCode } from '../errors.js';
import type { User } from '../types/models.js';
import type { AdapterTwoFactor, SecondFactor, TwoFactorSetupInfo } from '../types/two-factor.js';
import { newBackupCodes, normalizeBackupCode } from './backup-codes.js';
import { openSecret, sealSecret } from './secret-box.js';
import { base32, matchTotp, newTotpSecret, normalizeTotp, totpUri } from './totp.js';

const WRONG = 'That code did not work. Check it and try again.';

/**
 * Accepts a code from the challenge: a TOTP code (6 digits) or a backup code (two groups of five).
 * Throws `InvalidTwoFactorCode` when it is neither, wrong, or already used.
 */
export async function acceptCode(ctx: AuthContext, userId: string, input: unknown): Promise<SecondFactor> {
	const { store, hasher } = ctx.options.twoFactor!;
	const record = await store.getTwoFactor(userId);
	if (!record?.enabledAt) throw new InvalidTwoFactorCode('two-factor is not on for this user');
	const totp = normalizeTotp(input);
	if (totp !== undefined) {
		const step = await matchingStep(ctx, record, totp);
		if (step === undefined || !(await store.useTwoFactorStep(userId, step))) throw new InvalidTwoFactorCode(WRONG);
		return 'totp';
	}
	const backup = normalizeBackupCode(input);
	if (backup !== undefined) {
		for (const hash of await hasher.candidates(userId, backup)) {
			const remaining = await store.useBackupCode(userId, hash);
			if (remaining === null) continue;
			await ctx.options.events.backupCodeUsed?.({ userId, remaining });
			return 'backup-code';
		}
	}
	throw new InvalidTwoFactorCode(WRONG);
}

/**
 * The time step a TOTP code matches under the record's secret; a secret sealed under an older
 * app secret is sealed again under the newest (compare-and-set) once it opens.
 */
async function matchingStep(ctx: AuthContext, record: AdapterTwoFactor, code: string): Promise<number | undefined> {
	const opened = await openSecret(ctx.options.keyring, record.secret);
	if (!opened) {
		ctx.options.logger.error(new InvalidTwoFactorCode(`the TOTP secret of user ${record.userId} opens under none of the configured secrets`));
		return undefined;
	}
	if (opened.stale) {
		const resealed = await sealSecret(ctx.options.keyring, opened.secret);
		await ctx.options.twoFactor!.store.resealTwoFactorSecret(record.userId, record.secret, resealed);
	}
	return matchTotp(opened.secret, code, Date.now());
}

/**
 * The secret being set up for the user, as an app takes it: the one already being set up (so
 * a page reloaded after scanning still matches the app), else a new one, stored off. `undefined`
 * when two-factor is already on.
 */
export async function beginSetup(ctx: AuthContext, user: User & { id: string }, options: { fresh?: boolean } = {}): Promise<TwoFactorSetupInfo | undefined> {
	const { store, issuer } = ctx.options.twoFactor!;
	const record = await store.getTwoFactor(user.id);
	if (record?.enabledAt) return undefined;
	let secret = !options.fresh && record ? (await openSecret(ctx.options.keyring, record.secret))?.secret : undefined;
	if (!secret) {
		secret = newTotpSecret();
		if (!(await store.beginTwoFactor(user.id, await sealSecret(ctx.options.keyring, secret)))) return undefined;
	}
	const name = issuer ?? new URL(ctx.origin).host;
	const accountName = (typeof user.email === 'string' && user.email) || user.id;
	return { secret: base32(secret), uri: totpUri(name, accountName, secret), issuer: name, accountName };
}

/**
 * Turns two-factor on once a code from the app proves it was set up: ten new backup codes are
 * made, stored hashed and returned (to be shown once). Throws `InvalidTwoFactorCode` for a wrong
 * code, or when the set-up changed meanwhile (another tab began again).
 */
export async function confirmSetup(ctx: AuthContext, userId: string, input: unknown): Promise<string[]> {
	const { store, hasher } = ctx.options.twoFactor!;
	const record = await store.getTwoFactor(userId);
	const code = normalizeTotp(input);
	if (!record || record.enabledAt || code === undefined) throw new InvalidTwoFactorCode(WRONG);
	const opened = await openSecret(ctx.options.keyring, record.secret);
	const step = opened && matchTotp(opened.secret, code, Date.now());
	if (step === undefined || step === null) throw new InvalidTwoFactorCode(WRONG);
	const codes = newBackupCodes();
	const backupCodes = await Promise.all(codes.map((c) => hasher.hash(userId, c)));
	if (!(await store.enableTwoFactor(userId, { secret: record.secret, step, backupCodes, enabledAt: new Date() }))) {
		throw new InvalidTwoFactorCode('The set-up changed meanwhile. Scan the new code and try again.');
	}
	await ctx.options.events.twoFactorEnabled?.({ userId });
	return codes;
}

/** New backup codes replacing every old one (two-factor must be on); `undefined` when it is off. */
export async function regenerateBackupCodes(ctx: AuthContext, userId: string): Promise<string[] | undefined> {
	const { store, hasher } = ctx.options.twoFactor!;
	const codes = newBackupCodes();
	const hashes = await Promise.all(codes.map((c) => hasher.hash(userId, c)));
	return (await store.replaceBackupCodes(userId, hashes)) ? codes : undefined;
}
