/**
 * Markers for framework authors. Put `raw` in the config to get a `ResponseInternal` back from
 * `Auth()`; put `skipCSRFCheck` there when the framework already checks CSRF for that call.
 */
export const raw: unique symbol = Symbol('kitauth.raw');
export const skipCSRFCheck: unique symbol = Symbol('kitauth.skip-csrf-check');

/**
 * A provider option replacing `fetch` for every request to that provider (discovery, token,
 * userinfo, JWKS, refresh, and the `fetch` a `userinfo.request` hook gets): corporate proxies,
 * logging, tests. `GitHub({ [customFetch]: proxiedFetch })`, as in Auth.js.
 *
 * Auth.js's own `customFetch` (from `@auth/core`) works too: it is an unregistered symbol, so a
 * provider key is recognized by its description (see `providers/custom-fetch.ts`).
 */
export const customFetch: unique symbol = Symbol('kitauth.custom-fetch');
