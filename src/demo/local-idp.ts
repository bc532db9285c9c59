import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * A local OpenID Provider for trying OAuth offline: `oidc-provider` (a devDependency of this
 * repository) on 127.0.0.1, with its built-in login and consent pages — any login name and any
 * password work. The demo starts it when no real provider is configured. Never for production.
 */

export const LOCAL_IDP_CLIENT_ID = 'kitauth-demo';
/** Made fresh at every start: the demo's provider config and the IdP live in one process. */
export const LOCAL_IDP_CLIENT_SECRET = randomBytes(24).toString('base64url');

export function localIdpIssuer(): string {
	return `http://127.0.0.1:${Number(process.env.DEMO_IDP_PORT ?? 5174)}`;
}

/** Where the demo may be reached: the IdP accepts exactly these callback URLs. */
function demoOrigins(): string[] {
	const port = process.env.PORT ?? '5173';
	const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
	if (process.env.AUTH_URL) origins.push(new URL(process.env.AUTH_URL).origin);
	return origins;
}

/** Starts the local IdP; resolves to a function that stops it. */
export async function startLocalIdp(): Promise<() => Promise<void>> {
	// Imported by name at run time so the demo's server bundle never includes it.
	const moduleName = 'oidc-provider';
	const { default: Provider } = (await import(/* @vite-ignore */ moduleName)) as typeof import('oidc-provider');
	const issuer = localIdpIssuer();
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: LOCAL_IDP_CLIENT_ID,
				client_secret: LOCAL_IDP_CLIENT_SECRET,
				redirect_uris: demoOrigins().map((origin) => `${origin}/auth/callback/local`),
				grant_types: ['authorization_code'],
				response_types: ['code']
			}
		],
		jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'local-demo' }] },
		cookies: { keys: [randomBytes(32).toString('hex')] },
		claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
		features: { devInteractions: { enabled: true } },
		pkce: { required: () => true },
		ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Grant: 3600, Interaction: 600, Session: 3600 },
		// The login name is the account: `alice` becomes alice@example.com.
		findAccount: (_ctx, id) => ({
			accountId: id,
			claims: () => ({
				sub: id,
				email: id.includes('@') ? id : `${id}@example.com`,
				email_verified: true,
				name: id.split('@')[0]
			})
		})
	});
	const server: Server = createServer(provider.callback());
	const { port } = new URL(issuer);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(Number(port), '127.0.0.1', resolve);
	});
	return () => new Promise((resolve) => server.close(() => resolve()));
}
