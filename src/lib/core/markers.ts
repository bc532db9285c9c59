/**
 * Markers for framework authors. Put `raw` in the config to get a `ResponseInternal` back from
 * `Auth()`; put `skipCSRFCheck` there when the framework already checks CSRF for that call.
 */
export const raw: unique symbol = Symbol('kitauth.raw');
export const skipCSRFCheck: unique symbol = Symbol('kitauth.skip-csrf-check');
