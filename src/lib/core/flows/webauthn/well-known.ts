import type { ProviderConfig, WebAuthnConfig } from '../../types/provider.js';

/**
 * `/.well-known/webauthn` (WebAuthn Related Origin Requests): `{ "origins": [...] }`, the other
 * origins allowed to use this relying party's passkeys — the union of the WebAuthn providers'
 * `relatedOrigins`. Nothing is served when none lists any.
 */
export function relatedOriginsDocument(providers: readonly ProviderConfig[]): ((request: Request) => Response) | undefined {
	const origins = [
		...new Set(providers.filter((p): p is WebAuthnConfig => p.type === 'webauthn').flatMap((p) => p.relatedOrigins ?? []))
	];
	if (!origins.length) return undefined;
	const body = JSON.stringify({ origins });
	return (request) => {
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
		}
		return new Response(request.method === 'HEAD' ? null : body, {
			status: 200,
			headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' }
		});
	};
}
