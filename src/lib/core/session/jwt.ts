import { createKeyring, type Keyring, openJwe, randomUUID, sealJwe } from '../crypto/index.js';
import type { JWTDecodeParams, JWTEncodeParams } from '../types/config.js';
import type { JWT } from '../types/models.js';
import { rememberedPlaintext, rememberOpened } from './opened-tokens.js';

/** Seconds of clock skew tolerated on `exp`/`nbf`, as in Auth.js. */
const CLOCK_TOLERANCE = 15;
const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;

export const now = (): number => Math.floor(Date.now() / 1000);

/**
 * Seals claims into a session token: the payload plus `iat`, `exp = now + maxAge` and a random
 * `jti`, encrypted with the keyring's current key for this salt (the cookie name).
 */
export async function sealToken(keyring: Keyring, salt: string, token: JWT, maxAge: number): Promise<string> {
	const iat = now();
	const claims: JWT = { ...token, iat, exp: iat + maxAge, jti: randomUUID() };
	return sealJwe(keyring, salt, JSON.stringify(claims));
}

/** Opens a session token; `null` when it is malformed, forged, foreign or expired. */
export async function openToken(keyring: Keyring, salt: string, token: string): Promise<JWT | null> {
	if (!token || token.length > 64 * 1024) return null;
	let plaintext = rememberedPlaintext(keyring, salt, token);
	if (plaintext === undefined) {
		const opened = await openJwe(keyring, salt, token);
		if (opened === null) return null;
		rememberOpened(keyring, salt, token, (plaintext = opened));
	}
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
		createKeyring(params.secret),
		params.salt,
		params.token ?? {},
		params.maxAge ?? DEFAULT_MAX_AGE
	);
}

/** The default `jwt.decode` (public, Auth.js compatible signature). */
export async function decode(params: JWTDecodeParams): Promise<JWT | null> {
	if (!params.token) return null;
	return openToken(createKeyring(params.secret), params.salt, params.token);
}
