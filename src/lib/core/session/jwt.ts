import { randomUUID } from 'node:crypto';
import type { JWTDecodeParams, JWTEncodeParams } from '../types/config.js';
import type { JWT } from '../types/models.js';
import { Keyring } from './keys.js';
import { openJwe, sealJwe } from './jwe.js';

/** Seconds of clock skew tolerated on `exp`/`nbf`, as in Auth.js. */
const CLOCK_TOLERANCE = 15;
const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;

export const now = (): number => Math.floor(Date.now() / 1000);

/**
 * Seals claims into a session token: the payload plus `iat`, `exp = now + maxAge` and a random
 * `jti`, encrypted with the keyring's current key for this salt (the cookie name).
 */
export function sealToken(keyring: Keyring, salt: string, token: JWT, maxAge: number): string {
	const iat = now();
	const claims: JWT = { ...token, iat, exp: iat + maxAge, jti: randomUUID() };
	return sealJwe(JSON.stringify(claims), keyring.current(salt));
}

/** Opens a session token; `null` when it is malformed, forged, foreign or expired. */
export function openToken(keyring: Keyring, salt: string, token: string): JWT | null {
	if (!token || token.length > 64 * 1024) return null;
	const plaintext = openJwe(token, ({ enc, kid }) => keyring.candidates(salt, enc, kid), keyring.headers);
	if (plaintext === null) return null;
	let claims: unknown;
	try {
		claims = JSON.parse(plaintext);
	} catch {
		return null;
	}
	if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
	const { exp, nbf, iat } = claims as JWT;
	const t = now();
	if (exp !== undefined && (typeof exp !== 'number' || exp + CLOCK_TOLERANCE <= t)) return null;
	if (nbf !== undefined && (typeof nbf !== 'number' || nbf - CLOCK_TOLERANCE > t)) return null;
	if (iat !== undefined && typeof iat !== 'number') return null;
	return claims as JWT;
}

/** The default `jwt.encode` (public, Auth.js compatible signature). */
export async function encode(params: JWTEncodeParams): Promise<string> {
	return sealToken(
		new Keyring(params.secret),
		params.salt,
		params.token ?? {},
		params.maxAge ?? DEFAULT_MAX_AGE
	);
}

/** The default `jwt.decode` (public, Auth.js compatible signature). */
export async function decode(params: JWTDecodeParams): Promise<JWT | null> {
	if (!params.token) return null;
	return openToken(new Keyring(params.secret), params.salt, params.token);
}
