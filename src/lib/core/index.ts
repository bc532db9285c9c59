/**
 * kitauth core: framework-free authentication on web `Request`/`Response`.
 * `Auth(request, config)` answers the REST API; `createAuthServer(config)` is the server API that
 * framework integrations (kitauth's SvelteKit edge among them) are built on.
 */
export { Auth } from './auth.js';
export { createActionURL, setEnvDefaults } from './env.js';
export { isAuthAction } from './router.js';
export { safeCallbackUrl } from './redirect.js';
export { customFetch, raw, skipCSRFCheck } from './markers.js';
export { MemoryStore, type MemoryStoreOptions } from './limit/index.js';
export { createAuthServer, isConfigurationFailure, lazyAuthServer, type Platform, type ServerSetup } from './server.js';
export { listProviders, type ClientProvider } from './providers/public.js';
export { devOutbox, type OutboxMessage } from './flows/email/outbox.js';
export type { SessionInfo, SessionPage, SessionPageOptions } from './session/manage.js';
export type { SessionsEnded } from './session/end.js';
export type { LinkedAccount, SignInMethodsHint, UnlinkResult } from './accounts.js';
export type { PasskeyInfo, PasskeyRemoval } from './flows/webauthn/manage.js';
export type { Env } from './env.js';
export * from './errors.js';
export { CONFIGURATION_MESSAGE, refusalOf, type Refusal } from './error-answers.js';
export type * from './types.js';
