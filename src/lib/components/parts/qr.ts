/**
 * A QR code as one SVG path (`uqr` does the encoding: any runtime, no dependencies), so it renders
 * as markup in the component itself: no image request, no inline script, nothing the built-in
 * pages' Content-Security-Policy would have to allow.
 */
import { encode } from 'uqr';

export interface QrPath {
	/** Modules per side, the quiet zone included. */
	size: number;
	/** One `M x y h1 v1 h-1 z` square per dark module. */
	d: string;
}

export function qrPath(text: string): QrPath {
	// Error correction M: a phone's camera reads it off a screen easily; border 2 modules of quiet zone.
	const { data, size } = encode(text, { ecc: 'M', border: 2 });
	let d = '';
	data.forEach((row, y) => row.forEach((dark, x) => (d += dark ? `M${x} ${y}h1v1h-1z` : '')));
	return { size, d };
}
