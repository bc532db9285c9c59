import * as o from 'oauth4webapi';
import { OAuthCallbackError } from '../../errors.js';

/**
 * Reading an ID token before it is verified, only to decide how to verify it: whether a plain
 * OAuth 2 response carries one whose nonce must match, which issuer a multi-tenant server's token
 * must name. Nothing read here is trusted; oauth4webapi's claim checks and the JWKS signature check
 * come after, on the token itself.
 */
import { fromBase64urlText } from '../../crypto/index.js';

/** The payload of a compact JWS, unverified; `undefined` when it is not one. */
export function unverifiedClaims(jwt: unknown): Record<string, unknown> | undefined {
	if (typeof jwt !== 'string') return undefined;
	try {
		const payload: unknown = JSON.parse(fromBase64urlText(jwt.split('.')[1] ?? '') ?? '');
		return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The unverified claims of the ID token in a token endpoint response, read from a clone (the
 * response itself is left for oauth4webapi): `undefined` when there is no ID token, `{}` when
 * there is one that cannot be read (oauth4webapi then refuses it).
 */
export async function peekIdToken(response: Response): Promise<Record<string, unknown> | undefined> {
	if (!response.ok) return undefined;
	const body: unknown = await response.clone().json().catch(() => undefined);
	const idToken = body && typeof body === 'object' ? (body as { id_token?: unknown }).id_token : undefined;
	if (idToken === undefined) return undefined;
	return unverifiedClaims(idToken) ?? {};
}

/** Seconds an ID token's `iat` may lie ahead of our clock (oauth4webapi's default tolerance). */
export const IAT_TOLERANCE = 30;

/**
 * Refuses an ID token issued in the future beyond the clock tolerance (the client's
 * `[clockTolerance]` when set, else {@link IAT_TOLERANCE} seconds). oauth4webapi checks `iat`'s
 * presence and type, `exp` and `nbf`, but not this.
 */
export function assertIssuedInPast(claims: o.IDToken | undefined, client: o.Client): void {
	if (!claims) return;
	const configured = client[o.clockTolerance];
	const tolerance = typeof configured === 'number' && Number.isFinite(configured) && configured >= 0 ? configured : IAT_TOLERANCE;
	const skew = typeof client[o.clockSkew] === 'number' && Number.isFinite(client[o.clockSkew]) ? client[o.clockSkew]! : 0;
	const now = Math.floor(Date.now() / 1000) + skew;
	if (typeof claims.iat !== 'number' || claims.iat > now + tolerance) {
		throw new OAuthCallbackError(`The ID token was issued in the future (iat ${String(claims.iat)}, now ${now})`);
	}
}
