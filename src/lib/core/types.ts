export type * from './types/models.js';
export type * from './types/adapter.js';
export type * from './types/provider.js';
export type * from './types/config.js';
export type * from './types/session-callback.js';
export type * from './types/internal.js';
export type * from './types/limit.js';
export type * from './types/server.js';
