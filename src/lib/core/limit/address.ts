/**
 * Client addresses → the bucket they count against.
 *
 * One address, one bucket, whatever its spelling (the textual-aliasing bypass of better-auth's
 * CVE-2026-45364): the text is parsed into 16 bytes and the bucket is written from those bytes.
 * IPv4, IPv4-mapped IPv6 (`::ffff:1.2.3.4`, `::ffff:102:304`) and NAT64's well-known prefix
 * (`64:ff9b::1.2.3.4`) are one IPv4 address. IPv6 is grouped by a prefix, /64 by default: a
 * customer network gets at least a /64, so rotating addresses inside it (the other half of that
 * CVE) keeps the budget. Only strict dotted-decimal IPv4 is accepted: `010.1.1.1`, `127.1` and
 * `0x7f.0.0.1` mean different things to different parsers, so they are not addresses here.
 */

const MAX_TEXT = 64;

/** Strict dotted-decimal IPv4 (no leading zeros, each part 0–255): already its own bucket. */
const PLAIN_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The bucket of `text`, or `undefined` when it is not an IP address. Never throws. */
export function addressBucket(text: string, ipv6Prefix: number): string | undefined {
	// The common case, one test: what the parse below would write back is the text itself.
	if (typeof text === 'string' && PLAIN_IPV4.test(text)) return text;
	const bytes = parseAddress(text);
	if (!bytes) return undefined;
	if (isIPv4InIPv6(bytes)) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
	const masked = bytes.slice();
	for (let bit = ipv6Prefix; bit < 128; bit++) masked[bit >> 3] = masked[bit >> 3]! & ~(0x80 >> (bit & 7));
	const groups: string[] = [];
	for (let i = 0; i < 16; i += 2) groups.push(((masked[i]! << 8) | masked[i + 1]!).toString(16));
	return `${groups.join(':')}/${ipv6Prefix}`;
}

/**
 * 16 bytes (IPv4 as `::ffff:a.b.c.d`), or undefined. Accepts `[v6]`, drops a `%zone`, and drops
 * a port (`[v6]:port`, `a.b.c.d:port`: some proxies, Azure's among them, append one).
 */
export function parseAddress(input: string): Uint8Array | undefined {
	if (typeof input !== 'string' || input.length > MAX_TEXT) return undefined;
	let text = input.trim();
	const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text);
	if (bracketed) text = bracketed[1]!;
	else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(':'));
	const zone = text.indexOf('%');
	if (zone >= 0) text = text.slice(0, zone);
	if (!text.includes(':')) {
		const v4 = parseIPv4(text);
		if (!v4) return undefined;
		const bytes = new Uint8Array(16);
		bytes[10] = 0xff;
		bytes[11] = 0xff;
		bytes.set(v4, 12);
		return bytes;
	}
	return parseIPv6(text);
}

function parseIPv4(text: string): number[] | undefined {
	const parts = text.split('.');
	if (parts.length !== 4) return undefined;
	const bytes: number[] = [];
	for (const part of parts) {
		if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
		const value = Number(part);
		if (value > 255) return undefined;
		bytes.push(value);
	}
	return bytes;
}

function parseIPv6(text: string): Uint8Array | undefined {
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	// A dotted IPv4 may only end the address.
	const head = groupsOf(halves[0]!, halves.length === 1);
	const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
	if (!head || !tail) return undefined;
	const total = head.length + tail.length;
	if (halves.length === 2 ? total > 7 : total !== 8) return undefined;
	const words = [...head, ...new Array<number>(8 - total).fill(0), ...tail];
	const bytes = new Uint8Array(16);
	words.forEach((word, i) => {
		bytes[2 * i] = word >> 8;
		bytes[2 * i + 1] = word & 0xff;
	});
	return bytes;
}

/** Colon-separated 16-bit groups; the last may be a dotted IPv4 (two groups). */
function groupsOf(part: string, endsAddress: boolean): number[] | undefined {
	if (part === '') return [];
	const pieces = part.split(':');
	const words: number[] = [];
	for (let i = 0; i < pieces.length; i++) {
		const piece = pieces[i]!;
		if (endsAddress && i === pieces.length - 1 && piece.includes('.')) {
			const v4 = parseIPv4(piece);
			if (!v4) return undefined;
			words.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
		} else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
			words.push(parseInt(piece, 16));
		} else {
			return undefined;
		}
	}
	return words;
}

/** `::ffff:0:0/96` (IPv4-mapped) or `64:ff9b::/96` (NAT64 well-known prefix). */
function isIPv4InIPv6(bytes: Uint8Array): boolean {
	const mapped = bytes.subarray(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
	const nat64 =
		bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b &&
		bytes.subarray(4, 12).every((byte) => byte === 0);
	return mapped || nat64;
}
