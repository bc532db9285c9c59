import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withEnvDefaults, type Env } from '../../../src/lib/core/env.js';
import { userAndAccount } from '../../../src/lib/core/flows/oauth/profile.js';
import { normalizeProviders } from '../../../src/lib/core/providers/normalize.js';
import type { Profile, TokenSet, User } from '../../../src/lib/core/types/models.js';
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

/** One request a `serveJson` server received, in full. */
export interface ReceivedRequest {
	method: string;
	path: string;
	/** The query, as `URLSearchParams`. */
	query: URLSearchParams;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/**
 * A real HTTP server on 127.0.0.1 answering fixed JSON per path (a stand-in IdP host for hooks).
 * `requests` lists path and Authorization header of each request; `received`, everything.
 */
export async function serveJson(
	routes: Record<string, (origin: string, request: ReceivedRequest) => { status?: number; body: unknown }>
): Promise<{
	origin: string;
	requests: { path: string; authorization: string | undefined }[];
	received: ReceivedRequest[];
	close: () => Promise<void>;
}> {
	const { createServer } = await import('node:http');
	const requests: { path: string; authorization: string | undefined }[] = [];
	const received: ReceivedRequest[] = [];
	let origin = '';
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', origin);
			const request: ReceivedRequest = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: url.searchParams,
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8')
			};
			requests.push({ path: url.pathname, authorization: req.headers.authorization });
			received.push(request);
			const route = routes[url.pathname];
			const { status = 200, body } = route ? route(origin, request) : { status: 404, body: { error: 'not_found' } };
			res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		});
	});
	await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	origin = `http://127.0.0.1:${address.port}`;
	return { origin, requests, received, close: () => new Promise((done) => server.close(() => done())) };
}

/** The user kitauth makes of a profile: the preset's `profile()`, or the default mapping without one. */
export async function mappedUser(provider: OAuthConfig, profile: Profile, tokens: TokenSet = {}): Promise<User> {
	return (await userAndAccount(provider, profile, tokens)).user;
}

/** The user the default mapping alone makes of a profile (to show a preset's `profile()` is needed). */
export async function defaultUser(profile: Profile): Promise<User> {
	const bare: OAuthConfig = { id: 'bare', name: 'Bare', type: 'oauth' };
	return mappedUser(bare, profile);
}

/** The `userinfo.request` hook of a preset, run as the callback runs it (the global fetch here). */
export async function requestProfile<P extends Profile>(provider: OAuthConfig<P>, tokens: TokenSet): Promise<P> {
	const request = typeof provider.userinfo === 'object' ? provider.userinfo.request : undefined;
	if (!request) throw new Error(`${provider.id} has no userinfo.request`);
	return request({ tokens, provider, fetch: globalThis.fetch });
}

/** WCAG 2 contrast ratio of two `#rgb`/`#rrggbb` colours (4.5 is AA for normal text). */
export function contrastRatio(a: string, b: string): number {
	const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
	return (light + 0.05) / (dark + 0.05);
}

function luminance(hex: string): number {
	const digits = hex.replace('#', '');
	const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
	if (!/^[\da-f]{6}$/i.test(full)) throw new Error(`not a colour: ${hex}`);
	const [r, g, b] = [0, 2, 4].map((i) => {
		const channel = Number.parseInt(full.slice(i, i + 2), 16) / 255;
		return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
	}) as [number, number, number];
	return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A native preset module of src/lib/providers. */
export interface NativePreset {
	file: string;
	/** The file name without `.ts`. */
	stem: string;
	preset: (options?: Record<string, unknown>) => OAuthConfig;
	/** What the preset makes without options. */
	config: OAuthConfig;
	source: string;
}

const PROVIDERS = fileURLToPath(new URL('../../../src/lib/providers/', import.meta.url));

/**
 * The native presets: the modules of src/lib/providers whose default export, called without
 * options, is an OAuth/OIDC provider with an id (not credentials or email; not the generic
 * `OAuth()`/`OIDC()`, which need an id and endpoints).
 */
export async function nativePresets(): Promise<NativePreset[]> {
	const found: NativePreset[] = [];
	for (const file of readdirSync(PROVIDERS).filter((name) => name.endsWith('.ts')).sort()) {
		const module = (await import(pathToFileURL(join(PROVIDERS, file)).href)) as { default?: unknown };
		if (typeof module.default !== 'function') continue;
		const preset = module.default as NativePreset['preset'];
		let config: OAuthConfig;
		try {
			config = preset({});
		} catch {
			continue;
		}
		if ((config.type !== 'oauth' && config.type !== 'oidc') || typeof config.id !== 'string') continue;
		found.push({ file, stem: file.slice(0, -'.ts'.length), preset, config, source: readFileSync(join(PROVIDERS, file), 'utf8') });
	}
	return found;
}
