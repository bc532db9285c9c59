import { withEnvDefaults, type Env } from '../../../src/lib/core/env.js';
import { normalizeProviders } from '../../../src/lib/core/providers/normalize.js';
import type { EndpointSetting, OAuthConfig, Provider, ProviderConfig } from '../../../src/lib/core/types/provider.js';

/**
 * A typed preset (`OAuthConfig<GitHubProfile>`) is not assignable to `Provider` (`OAuthConfig<Profile>`)
 * while OAuthConfig's hooks are function-typed properties (strictFunctionTypes makes them
 * contravariant in the profile type). Until core declares them as methods, tests widen here, once.
 */
/** What kitauth does at start-up: env inference, then normalization (options over defaults). */
export function resolve(env: Env, ...presets: Provider[]): OAuthConfig[] {
	const config = withEnvDefaults(env, { providers: presets });
	return normalizeProviders(config.providers).map(asOAuth);
}

/** One preset, normalized without env (what `normalizeProviders` makes of an app's call). */
export function normalized(preset: Provider): OAuthConfig {
	const [provider] = normalizeProviders([preset]);
	return asOAuth(provider);
}

export function asOAuth(provider: ProviderConfig | undefined): OAuthConfig {
	if (!provider || (provider.type !== 'oauth' && provider.type !== 'oidc')) throw new Error('expected an OAuth provider');
	return provider;
}

export function urlOf(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}

export function paramsOf(setting: EndpointSetting | undefined): Record<string, unknown> | undefined {
	return typeof setting === 'string' ? undefined : setting?.params;
}

export function scopeOf(config: Pick<OAuthConfig, 'authorization'>): unknown {
	return paramsOf(config.authorization)?.scope;
}

/** A real HTTP server on 127.0.0.1 answering fixed JSON per path (a stand-in IdP host for hooks). */
export async function serveJson(
	routes: Record<string, (origin: string) => { status?: number; body: unknown }>
): Promise<{ origin: string; requests: { path: string; authorization: string | undefined }[]; close: () => Promise<void> }> {
	const { createServer } = await import('node:http');
	const requests: { path: string; authorization: string | undefined }[] = [];
	let origin = '';
	const server = createServer((req, res) => {
		const path = new URL(req.url ?? '/', origin).pathname;
		requests.push({ path, authorization: req.headers.authorization });
		const route = routes[path];
		const { status = 200, body } = route ? route(origin) : { status: 404, body: { error: 'not_found' } };
		res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	});
	await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	origin = `http://127.0.0.1:${address.port}`;
	return { origin, requests, close: () => new Promise((done) => server.close(() => done())) };
}
