import { customFetch } from '../markers.js';

/**
 * Auth.js's `customFetch` is `Symbol("custom-fetch")`, not `Symbol.for(…)`: no import could give us
 * the very symbol an app's copy of `@auth/core` made. Its description is what identifies it.
 */
const AUTHJS_DESCRIPTION = 'custom-fetch';

/** The fetch an object carries under kitauth's `[customFetch]` key or Auth.js's, if any. */
export function customFetchOf(source: object | undefined): typeof globalThis.fetch | undefined {
	if (!source) return undefined;
	const own = (source as { [customFetch]?: unknown })[customFetch];
	if (typeof own === 'function') return own as typeof globalThis.fetch;
	for (const key of Object.getOwnPropertySymbols(source)) {
		if (key.description !== AUTHJS_DESCRIPTION) continue;
		const value: unknown = (source as Record<symbol, unknown>)[key];
		if (typeof value === 'function') return value as typeof globalThis.fetch;
	}
	return undefined;
}
