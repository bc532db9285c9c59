import type { Keyring } from '../crypto/index.js';

/**
 * The plaintexts of session tokens this process has already decrypted and authenticated, per
 * keyring and salt, keyed by the whole token. A signed-in browser sends the same cookie on every
 * request until it is reissued (`updateAge`), and the decrypt with its HMAC was most of what a
 * JWT session read cost kitauth on a page (issue 33's profile: ~11 % of a protected page's CPU).
 *
 * Why this weakens nothing: decryption is deterministic, so a token equal to one that opened
 * opens to the same plaintext; any other string (one byte changed, another key's token) misses
 * and is decrypted and authenticated in full. Only tokens that opened are kept, so forged input
 * cannot fill the memo. The plaintext is kept, not the claims: each read parses its own copy
 * (callbacks edit tokens in place), and `openToken` checks `exp`/`nbf` on every read, hit or miss.
 * A new secret is a new keyring, whose memo starts empty.
 */

/** Tokens remembered per keyring and salt; the oldest is forgotten first. */
export const OPENED_TOKENS_MAX = 1000;
/** Longer tokens (a session carrying provider tokens, chunked) are not kept: a bound on memory. */
const MAX_KEPT_LENGTH = 4096;

/** A remembered token and what it opened to. */
interface Opened {
	token: string;
	plaintext: string;
}

/**
 * An entry's key: the token's last characters (its authentication tag, random per token). Hashing
 * the whole token (hundreds of characters, a new string each request) cost more than the rest of
 * the lookup; the full token is compared on a hit, so a key shared by two tokens only misses.
 */
const KEY_LENGTH = 24;
const keyOf = (token: string) => token.slice(-KEY_LENGTH);

const memos = new WeakMap<Keyring, Map<string, Map<string, Opened>>>();

function memoOf(keyring: Keyring, salt: string): Map<string, Opened> {
	let bySalt = memos.get(keyring);
	if (!bySalt) memos.set(keyring, (bySalt = new Map()));
	let memo = bySalt.get(salt);
	if (!memo) bySalt.set(salt, (memo = new Map()));
	return memo;
}

/** The plaintext of `token` if it opened before under this keyring and salt. */
export function rememberedPlaintext(keyring: Keyring, salt: string, token: string): string | undefined {
	const opened = memos.get(keyring)?.get(salt)?.get(keyOf(token));
	return opened?.token === token ? opened.plaintext : undefined;
}

/** Records a token that opened (authenticated) to `plaintext`. */
export function rememberOpened(keyring: Keyring, salt: string, token: string, plaintext: string): void {
	if (token.length > MAX_KEPT_LENGTH) return;
	const memo = memoOf(keyring, salt);
	const key = keyOf(token);
	if (memo.size >= OPENED_TOKENS_MAX && !memo.has(key)) memo.delete(memo.keys().next().value as string);
	memo.set(key, { token, plaintext });
}

/** How many tokens are remembered for this keyring and salt (for tests of the bound). */
export const rememberedCount = (keyring: Keyring, salt: string): number => memos.get(keyring)?.get(salt)?.size ?? 0;
