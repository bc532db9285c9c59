import * as o from 'oauth4webapi';
import type { OAuthConfig } from '../../types/provider.js';
import type { HttpOptions } from './server.js';

const HMAC_HASHES: Record<string, string> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };

/**
 * Checks the signature of an ID token oauth4webapi has already accepted the claims of: through the
 * server's JWKS, or, for an HMAC algorithm, with the client secret as the key (OpenID Connect Core
 * §10.1; LINE Login signs its ID tokens so, and oauth4webapi leaves those to the application).
 * oauth4webapi has already required the header's `alg` to be the expected one (the client's
 * `id_token_signed_response_alg`, else one the server advertises, else RS256), so an HMAC token is
 * only taken from a provider configured or discovered to issue one.
 */
export async function verifyIdTokenSignature(
	provider: OAuthConfig,
	server: o.AuthorizationServer,
	response: Response,
	idToken: string,
	http: HttpOptions
): Promise<void> {
	const [header = '', payload = '', signature = ''] = idToken.split('.');
	const alg = algorithmOf(header) ?? '';
	const hash = HMAC_HASHES[alg];
	if (!hash) return o.validateApplicationLevelSignature(server, response, http);
	if (!provider.clientSecret) throw new Error(`An ${alg} ID token needs a client secret to be verified`);
	const encoder = new TextEncoder();
	const key = await crypto.subtle.importKey('raw', encoder.encode(provider.clientSecret), { name: 'HMAC', hash }, false, ['verify']);
	const valid = await crypto.subtle.verify('HMAC', key, base64url(signature), encoder.encode(`${header}.${payload}`));
	if (!valid) throw new Error('The ID token signature does not verify with the client secret');
}

function algorithmOf(encodedHeader: string): string | undefined {
	try {
		const header: unknown = JSON.parse(new TextDecoder().decode(base64url(encodedHeader)));
		const alg = header && typeof header === 'object' ? (header as { alg?: unknown }).alg : undefined;
		return typeof alg === 'string' ? alg : undefined;
	} catch {
		return undefined;
	}
}

function base64url(text: string): Uint8Array<ArrayBuffer> {
	const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
	return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
