/**
 * Account identifiers as the limiter counts them: one account, one budget, whatever its spelling.
 * NFKC first (fullwidth `＠`, compatibility characters; the validate-before-canonicalize class of
 * CVE-2026-73420), then lower case, trimmed (NFKC can turn an ideographic space into a plain one,
 * so trimming comes after it).
 */

/** Longer input is cut here first: no real email or username is this long, and NFKC is linear. */
const MAX_LENGTH = 1024;

/** The normalized identifier, or `undefined` when there is none to count (absent or blank). */
export function normalizeIdentifier(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	let text: string;
	try {
		text = (typeof value === 'string' ? value : String(value)).slice(0, MAX_LENGTH);
	} catch {
		return undefined; // an object that cannot be a string (no prototype, hostile toString)
	}
	const normalized = text.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
	return normalized === '' ? undefined : normalized;
}
