/**
 * The production budgets, and why they are what they are.
 *
 * Scopes. Every attempt has an address scope (a hard limit per fixed window, per client address)
 * and, for the kinds tied to an account, an account scope: the attempts since the account's last
 * success, of which the first few go through, then each must wait a doubling, capped delay after
 * the previous one (a per-account gate), and above a hard limit none goes through until the window
 * ends. A browser with a device cookie for the account takes the account scope's place with a
 * budget of its own (3. below).
 *
 * What the address scope counts. For credentials, email codes and passkey callbacks, failures only:
 * each attempt is counted before it is made (so concurrent attempts can never overrun the budget)
 * and refunded when it succeeds (`LimitStore.release`, only within the window it was counted in).
 * So an office signing in all day from one address uses none of it, and it is sized for many
 * people behind one address: 100 failures per 10 minutes (600 an hour, where the old budget was
 * 10, successes included). What it still bounds is one address guessing across many accounts
 * (password spraying: ≤ 600 guesses an hour) and the password hashes failures cost the server.
 * For email requests (each sends mail), WebAuthn options (each stores a challenge) and OAuth
 * starts (a flood limit) every request counts, as before.
 *
 * Lockout. The account's hard limit is what an attacker would like to trip: the owner could not
 * sign in until the window ends. The old budgets kept one address from ever reaching it (address
 * limit × windows per account window < account limit: 10 × (6 + 1) = 70 < 100). Budgets sized for
 * shared addresses break that rule: one address that waits out the delays (about two attempts a
 * minute at the 30 s cap) reaches the hard limit within the hour, as many addresses always could.
 * What keeps the owner in instead:
 * 1. Passkeys. A passkey sign-in (`webauthn-callback`) has no account scope (an assertion cannot
 *    be guessed), so no hard limit holds it.
 * 2. Email links. Clicking a link is not limited, and email requests keep the old rule: their
 *    address budget stays small (each request mails the victim), so one address cannot push an
 *    account to its email-request hard limit: 5 × (4 + 1) = 25 < 30. Many addresses can, but
 *    every one of their requests sent the owner a link they can use.
 * 3. Device cookies (OWASP, "Slow down online guessing attacks with device cookies"). A successful
 *    password or code sign-in gives the browser a signed cookie bound to the account (`device.ts`).
 *    That browser's attempts for that account are counted on its own budget (`<kind>:d:`, with the
 *    account rule's free attempts, delays and hard limit), not on the account's, so others'
 *    failures never delay or lock it, and a stolen cookie still buys at most the hard limit per
 *    window. A known browser also skips the address scope: the cookie is earned only by signing
 *    in to that account, is bound to it and has its own budget, so the address scope (there for
 *    unknown clients) would add nothing but a way for one attacker behind an office's NAT to lock
 *    that office's known browsers out. Its success takes back its own hit and leaves the account's
 *    count alone (those failures were not its own: clearing them would give an attacker a fresh
 *    run each time the owner signs in); a success from an unknown browser clears it, as always.
 * The price: from a new browser, while an attack is on, the owner waits for the window to end (at
 * most an hour), or uses a passkey, an email link or a browser they signed in from before.
 *
 * Guessing. Per account, unknown browsers together get at most `account.limit` guesses per window
 * (ASVS 6.3.1: ≤ 100 failed attempts per hour per account), and a patient distributed attacker
 * who waits out every delay about one guess per `maxDelay`; each known browser (its owner, or a
 * thief of its cookie) gets the same again on its own budget. tests/unit/limit/policy.test.ts
 * checks these numbers, lockout.security.test.ts and device.security.test.ts the behaviour.
 *
 * Kinds without an account scope: WebAuthn options are fetched on every sign-in page view
 * (conditional UI), so they get a generous per-minute budget; a passkey assertion or an OAuth
 * start cannot be guessed, so the callback's address budget only bounds failed ceremonies, and
 * the start's is a flood limit.
 */
import type { LimitKind, LimitRule } from '../types/limit.js';

export const LIMIT_KINDS: readonly LimitKind[] = [
	'credentials',
	'email-request',
	'email-code',
	'webauthn-options',
	'webauthn-callback',
	'oauth-start',
	'two-factor'
];

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * The kinds whose address budget counts failures only: an attempt that succeeds is refunded
 * (`Limiter.succeeded`). The others count every request: each costs the server something whether
 * or not it succeeds (a mail, a stored challenge), or is only limited against floods.
 */
export const FAILURE_COUNTED: ReadonlySet<LimitKind> = new Set<LimitKind>(['credentials', 'email-code', 'webauthn-callback', 'two-factor']);

/** Guessing a secret tied to an account: a password, an emailed code. */
const guessing: LimitRule = {
	address: { limit: 100, window: 10 * MINUTE },
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
	// Failures only (a refused or garbled ceremony): sized like the guessing kinds' address budget.
	'webauthn-callback': { address: { limit: 100, window: 10 * MINUTE }, account: false },
	'oauth-start': { address: { limit: 30, window: 10 * MINUTE }, account: false },
	// Second-factor codes (TOTP, backup codes), per user: tighter than passwords, since whoever
	// guesses here already has the first factor, and a 6-digit code with a step either side is
	// 3 in a million per guess. 10 an hour is ~0.07 % a day for a patient attacker; the owner's
	// known browser (device cookie) keeps its own budget.
	'two-factor': {
		address: { limit: 100, window: 10 * MINUTE },
		account: { freeAttempts: 3, delay: 2, maxDelay: 60, limit: 10, window: HOUR }
	}
};
