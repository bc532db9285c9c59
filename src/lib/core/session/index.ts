export type { SessionRead, SessionStart } from './types.js';
export type { DatabaseStrategy, JwtStrategy, SessionStrategy } from './strategy.js';
