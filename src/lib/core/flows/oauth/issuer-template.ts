import type * as o from 'oauth4webapi';
import type { OAuthConfig } from '../../types/provider.js';

/** Tenant ids are GUIDs: nothing else is ever spliced into an issuer URL. */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The issuer a discovery response must name: the configured one, or — for a provider with an
 * `issuerTemplate` — the template the document names, provided the configured issuer is an
 * instance of it (`…/common/v2.0` of `…/{tenantid}/v2.0`: one path segment in its place).
 */
export async function expectedIssuer(provider: OAuthConfig, configured: string, response: Response): Promise<URL> {
	const placeholder = provider.issuerTemplate?.placeholder;
	if (!placeholder) return new URL(configured);
	const body: unknown = await response.clone().json().catch(() => undefined);
	const named = body && typeof body === 'object' ? (body as { issuer?: unknown }).issuer : undefined;
	return typeof named === 'string' && isInstance(configured, named, placeholder) ? new URL(named) : new URL(configured);
}

function isInstance(issuer: string, template: string, placeholder: string): boolean {
	const parts = template.split(placeholder);
	if (parts.length !== 2) return false;
	const [before = '', after = ''] = parts;
	if (!before.includes('://') || issuer.length <= before.length + after.length) return false;
	if (!issuer.startsWith(before) || !issuer.endsWith(after)) return false;
	return /^[\w.-]+$/.test(issuer.slice(before.length, issuer.length - after.length));
}

/**
 * The server an ID token is checked against. A templated issuer is one no token carries: each
 * names its own tenant's issuer. So the template is filled with the tenant claim of the token
 * itself (not yet verified, hence a GUID or a refusal), and oauth4webapi then requires `iss` to
 * be exactly that issuer, besides aud, exp and nonce as usual, while the signature is checked
 * with the server's one JWKS: a token can only claim the tenant it was issued for.
 */
export function serverForIdToken(
	provider: OAuthConfig,
	server: o.AuthorizationServer,
	claims: Record<string, unknown> | undefined
): o.AuthorizationServer {
	const template = provider.issuerTemplate;
	if (!template || !claims || !server.issuer.includes(template.placeholder)) return server;
	const tenant = claims[template.claim];
	if (typeof tenant !== 'string' || !TENANT_ID.test(tenant)) {
		throw new Error(`The ID token's "${template.claim}" claim is not a tenant id`);
	}
	return { ...server, issuer: server.issuer.replace(template.placeholder, tenant) };
}
