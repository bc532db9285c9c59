/**
 * `kitauth/limit/memory`: the in-process store (one instance only), for `rateLimit.store` when
 * its size bound should differ from the default one.
 *
 * ```ts
 * import { MemoryStore } from 'kitauth/limit/memory';
 * rateLimit: { store: new MemoryStore({ maxKeys: 200_000 }) }
 * ```
 */
export { MemoryStore, type MemoryStoreOptions } from '../core/limit/memory.js';
export type { LimitCount, LimitStore } from '../core/types/limit.js';
