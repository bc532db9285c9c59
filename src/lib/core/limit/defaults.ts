/**
 * The production budgets, and why they are what they are.
 *
 * Two scopes per attempt. The address scope is a plain hard limit per fixed window. The account
 * scope counts the attempts that got past the address scope since the last success: the first
 * few go through, then each must wait a doubling, capped delay after the previous one (a
 * per-account gate), and above a hard limit none goes through until the window ends.
 *
 * Lockout. A hard per-account limit is what an attacker would like to trip: the victim could not
 * sign in until the window ends. So:
 * 1. The account counter only sees attempts the address scope let through. One address therefore
 *    adds at most `address.limit` per address window to it, i.e. at most
 *    `address.limit × (⌈account.window / address.window⌉ + 1)` per account window (fixed windows
 *    need not line up, hence the +1).
 * 2. Each default `account.limit` is above that bound (credentials: 10 × (6 + 1) = 70 < 100;
 *    email-request: 5 × (4 + 1) = 25 < 30): an attacker with one address cannot reach the hard
 *    limit, however long they try. The address scope catches them first. (`defaults.test.ts`
 *    checks this for every kind.)
 * 3. The delays cap at `maxDelay`, under the address rate: one address can take at most half of
 *    the credentials gate's slots (10 attempts per 10 minutes against one slot per 30 s), so the
 *    victim waits about `maxDelay` at worst, and one success clears the count. (Email requests
 *    are different: the attacker's requests send the victim sign-in emails the victim can use.)
 * Many addresses can still trip the hard limit (they are indistinguishable from one user on many
 * networks); then guessing is capped at `account.limit` per window, as ASVS 6.3.1 (≤ 100 failed
 * attempts per hour per account) asks, and a patient distributed attacker who waits out every
 * delay gets about one guess per `maxDelay`.
 *
 * The address budgets are a compromise with shared addresses (offices, carrier NAT): sessions last
 * 30 days, so sign-in attempts are rare per person; sites with many users behind one address
 * should raise them (and the account limit with them, keeping rule 2).
 *
 * Kinds without an account scope: WebAuthn options are fetched on every sign-in page view
 * (conditional UI), so they get a generous per-minute budget; a passkey assertion or an OAuth
 * start cannot be guessed, so they are only limited against floods.
 */
import type { LimitKind, LimitRule } from '../types/limit.js';

export const LIMIT_KINDS: readonly LimitKind[] = [
	'credentials',
	'email-request',
	'email-code',
	'webauthn-options',
	'webauthn-callback',
	'oauth-start'
];

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** Guessing a secret tied to an account: a password, an emailed code. */
const guessing: LimitRule = {
	address: { limit: 10, window: 10 * MINUTE },
	account: { freeAttempts: 5, delay: 1, maxDelay: 30, limit: 100, window: HOUR }
};

export const DEFAULT_RULES: Readonly<Record<LimitKind, LimitRule>> = {
	credentials: guessing,
	'email-code': guessing,
	// Each request sends an email: a few at once, then minutes apart (no mail-bombing a victim).
	'email-request': {
		address: { limit: 5, window: 15 * MINUTE },
		account: { freeAttempts: 3, delay: 30, maxDelay: 5 * MINUTE, limit: 30, window: HOUR }
	},
	'webauthn-options': { address: { limit: 30, window: MINUTE }, account: false },
	'webauthn-callback': { address: { limit: 30, window: 10 * MINUTE }, account: false },
	'oauth-start': { address: { limit: 30, window: 10 * MINUTE }, account: false }
};
