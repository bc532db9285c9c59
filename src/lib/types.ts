/**
 * `kitauth/types`: the types of `@auth/core/types` under the same names (so moving from Auth.js is
 * a search-and-replace of the import), with kitauth's own beside them: its configuration,
 * providers, adapter, models and server API. Types only.
 *
 * Not here, on purpose: `SemverString` (a version string in Auth.js's internals, of no use to an app).
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { User } from './core/types/models.js';

export type * from './core/types.js';
export type { ErrorPageParam, SignInPageErrorParam, ErrorType } from './core/errors.js';

/** A value, or a promise of one. */
export type Awaitable<T> = T | PromiseLike<T>;
/** What a promise resolves to (as Auth.js spells it). */
export type Awaited<T> = T extends Promise<infer U> ? U : T;
/** The user as Auth.js's `DefaultUser` (kitauth's `User` has the same fields). */
export type DefaultUser = User;
/** What `GET /auth/webauthn-options/<provider>` answers: the ceremony to run and its options. */
export type WebAuthnOptionsResponseBody =
	| { action: 'authenticate'; options: PublicKeyCredentialRequestOptionsJSON }
	| { action: 'register'; options: PublicKeyCredentialCreationOptionsJSON };
