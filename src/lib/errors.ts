/**
 * `kitauth/errors`: every error class kitauth throws, under `@auth/core/errors`' names (so moving
 * from Auth.js is a search-and-replace of the import), and kitauth's own (`RateLimited`,
 * `ReauthenticationRequired`, …). Each carries its `type` and `kind`, as in Auth.js.
 */
export * from './core/errors.js';
