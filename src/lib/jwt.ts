/**
 * `kitauth/jwt`: the session-token codec, as `@auth/core/jwt` has it — `encode`/`decode` (JWE,
 * Auth.js-compatible) and `getToken` to read a request's token.
 */
export { decode, encode } from './core/session/jwt.js';
export { getToken, type GetTokenParams } from './core/session/get-token.js';
export type { JWT } from './core/types/models.js';
export type { JWTDecodeParams, JWTEncodeParams } from './core/types/config.js';
