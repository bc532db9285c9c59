/**
 * Which address an attempt counts against.
 *
 * The connection's address (given by the integration: SvelteKit's `getClientAddress()`) unless the
 * app declared a header its own proxies set (`rateLimit.clientAddress`). Any client can send
 * `X-Forwarded-For` or `Forwarded`, so undeclared they are never read: a forged header would
 * otherwise buy a fresh budget per request.
 *
 * Declared, the header is read as adapter-node reads `ADDRESS_HEADER` with `XFF_DEPTH`: each of the
 * `depth` trusted proxies appends one entry, so the client's address is the `depth`-th entry from
 * the right, and whatever stands further left came from the client. Entries are split on every
 * comma, quotes or not: a quote-aware parser would let a client's unterminated quote swallow the
 * entries our proxies appended after it, whereas a naive split only garbles the client's own part.
 */
import type { ClientAddressOptions } from '../types/limit.js';

/** `undefined`: no address known. Otherwise the text to bucket (may be garbage; see `address.ts`). */
export function clientAddress(
	peer: string | undefined,
	headers: Headers,
	trusted: Readonly<Required<ClientAddressOptions>> | undefined
): string | undefined {
	const connection = typeof peer === 'string' && peer !== '' ? peer : undefined;
	if (!trusted) return connection;
	const value = headerValue(headers, trusted.header);
	if (value === null) return connection;
	const entries = value.split(',');
	// Fewer entries than proxies: the request did not come through all of them.
	if (entries.length < trusted.depth) return connection;
	const entry = entries[entries.length - trusted.depth]!.trim();
	return trusted.header === 'forwarded' ? forwardedFor(entry) : entry;
}

function headerValue(headers: Headers, name: string): string | null {
	try {
		return headers.get(name);
	} catch {
		return null;
	}
}

/** The node of an RFC 7239 element's `for=` (`for=192.0.2.1`, `for="[2001:db8::1]:4711"`), or ''. */
function forwardedFor(element: string): string {
	for (const pair of element.split(';')) {
		const equals = pair.indexOf('=');
		if (equals < 0 || pair.slice(0, equals).trim().toLowerCase() !== 'for') continue;
		const node = pair.slice(equals + 1).trim();
		// Brackets and ports are `parseAddress`'s business.
		return node.length >= 2 && node.startsWith('"') && node.endsWith('"') ? node.slice(1, -1) : node;
	}
	return '';
}
