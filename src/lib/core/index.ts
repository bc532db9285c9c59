/**
 * kitauth core: framework-free authentication on web `Request`/`Response`.
 * Framework integrations (kitauth's SvelteKit edge among them) wrap `Auth()`.
 */
export { Auth, handleRequest, respond } from './auth.js';
export { resolveOptions, type AuthOptions } from './config.js';
export { createContext, type AuthContext } from './context.js';
export { createActionURL, setEnvDefaults } from './env.js';
export { isAuthAction } from './request.js';
export { customFetch, raw, skipCSRFCheck } from './markers.js';
export { encode, decode } from './session/jwt.js';
export * from './errors.js';
export type * from './types.js';
