import { InvalidProvider } from '../errors.js';
import type { Provider, ProviderConfig } from '../types/provider.js';
import { customFetchOf } from './custom-fetch.js';

const PROVIDER_ID = /^[A-Za-z0-9][\w-]{0,63}$/;

/**
 * Turns `providers` into plain, frozen provider objects: preset functions are called, the options
 * a preset was called with (`options`) win over its defaults (nested objects merged), a
 * `[customFetch]` becomes the provider's `fetch`, and ids are checked so they are safe in URLs and
 * unique.
 */
export function normalizeProviders(providers: readonly Provider[]): readonly ProviderConfig[] {
	const seen = new Set<string>();
	return Object.freeze(
		providers.map((provider) => {
			const config = typeof provider === 'function' ? provider() : provider;
			const merged = withCustomFetch(config, mergeOptions(config));
			if (typeof merged.id !== 'string' || !PROVIDER_ID.test(merged.id)) {
				throw new InvalidProvider(`Provider id ${JSON.stringify(merged.id)} is not a valid URL segment`);
			}
			if (seen.has(merged.id)) {
				throw new InvalidProvider(`Two providers share the id "${merged.id}"`);
			}
			seen.add(merged.id);
			return Object.freeze(merged);
		})
	);
}

function mergeOptions<T extends ProviderConfig>(config: T): T {
	const options = (config as { options?: Partial<T> }).options;
	if (!options) return { ...config };
	return deepMerge({ ...config }, options) as T;
}

/**
 * `[customFetch]` (kitauth's or Auth.js's symbol) is the provider's `fetch`. Symbol keys are not
 * merged like the others, so the order is spelled out: the app's options first (symbol, then
 * `fetch`), then the preset's own (Auth.js's TikTok and Apple presets carry one).
 */
function withCustomFetch<T extends ProviderConfig>(config: T, merged: T): T {
	if (merged.type !== 'oauth' && merged.type !== 'oidc') return merged;
	const options = (config as { options?: { fetch?: typeof globalThis.fetch } }).options;
	const chosen = customFetchOf(options) ?? options?.fetch ?? customFetchOf(config) ?? merged.fetch;
	return chosen ? { ...merged, fetch: chosen } : merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

/** Merges plain objects key by key; everything else (arrays, functions, keys) is replaced. */
export function deepMerge(
	target: Record<string, unknown>,
	source: Record<string, unknown>
): Record<string, unknown> {
	const out: Record<string, unknown> = { ...target };
	for (const [key, value] of Object.entries(source)) {
		if (value === undefined) continue;
		out[key] = isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key], value) : value;
	}
	return out;
}
