/**
 * Markers for framework authors. Put `raw` in the config to get a `ResponseInternal` back from
 * `Auth()`; put `skipCSRFCheck` there when the framework already checks CSRF for that call.
 */
export const raw: unique symbol = Symbol('kitauth.raw');
export const skipCSRFCheck: unique symbol = Symbol('kitauth.skip-csrf-check');

/**
 * Is `value` the marker `ours`, or Auth.js's marker of the same meaning? `@auth/core`'s are
 * unregistered symbols (`Symbol("skip-csrf-check")`, `Symbol("return-type-raw")`): no import could
 * give us the very symbol an app's copy made, so their description identifies them.
 */
export function isMarker(value: unknown, ours: typeof raw | typeof skipCSRFCheck): boolean {
	if (value === ours) return true;
	const authjs = ours === raw ? 'return-type-raw' : 'skip-csrf-check';
	return typeof value === 'symbol' && value.description === authjs;
}

/**
 * A provider option replacing `fetch` for every request to that provider (discovery, token,
 * userinfo, JWKS, refresh, and the `fetch` a `userinfo.request` hook gets): corporate proxies,
 * logging, tests. `GitHub({ [customFetch]: proxiedFetch })`, as in Auth.js.
 *
 * Auth.js's own `customFetch` (from `@auth/core`) works too: it is an unregistered symbol, so a
 * provider key is recognized by its description (see `providers/custom-fetch.ts`).
 */
export const customFetch: unique symbol = Symbol('kitauth.custom-fetch');
