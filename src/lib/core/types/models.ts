/**
 * The data shapes of the specification ("Resources"): what users, accounts, sessions, tokens and
 * authenticators look like to callbacks, events and adapters. Names and fields follow Auth.js v5 so
 * an app can switch imports and keep its types.
 */
import type { ProviderType } from '../../shared/provider.js';

export type { ProviderType };

/** A user as the app sees it (the spec's `User`). */
export interface User {
	id?: string;
	name?: string | null;
	email?: string | null;
	image?: string | null;
}

/** A stored user (the spec's `AdapterUser`). */
export interface AdapterUser extends User {
	id: string;
	email: string;
	/** `null` until the user first signs in with an email link, then the date of that sign-in. */
	emailVerified: Date | null;
}

/** The OAuth/OIDC token fields an account may carry (snake_case, as the token endpoint sends them). */
export interface TokenSet {
	access_token?: string;
	refresh_token?: string;
	id_token?: string;
	scope?: string;
	/** Always lower-case. */
	token_type?: string;
	expires_in?: number;
	/** Absolute expiry of the access token, in seconds since the epoch. */
	expires_at?: number;
	authorization_details?: unknown[];
	session_state?: string | null;
	[field: string]: unknown;
}

/** A connection between a user and a provider (the spec's `Account`). */
export interface Account extends TokenSet {
	provider: string;
	providerAccountId: string;
	type: ProviderType;
	userId?: string;
}

export interface AdapterAccount extends Account {
	userId: string;
	type: Exclude<ProviderType, 'credentials'>;
}

/** User info from an identity provider. Any extra claim may appear. */
export interface Profile {
	id?: string | null;
	sub?: string | null;
	name?: string | null;
	given_name?: string | null;
	family_name?: string | null;
	middle_name?: string | null;
	nickname?: string | null;
	preferred_username?: string | null;
	profile?: string | null;
	picture?: unknown;
	website?: string | null;
	email?: string | null;
	email_verified?: boolean | null;
	gender?: string | null;
	birthdate?: string | null;
	zoneinfo?: string | null;
	locale?: string | null;
	phone_number?: string | null;
	updated_at?: string | number | Date | null;
	address?: {
		country?: string | null;
		formatted?: string | null;
		locality?: string | null;
		postal_code?: string | null;
		region?: string | null;
		street_address?: string | null;
	} | null;
	[claim: string]: unknown;
}

/** What `locals.auth()` and `GET /auth/session` return. */
export interface Session {
	user?: User;
	/** ISO date string of when the session expires. */
	expires: string;
	/** Set when something about the session needs the app's attention (e.g. a failed token refresh). */
	error?: string;
	/**
	 * kitauth: what the session's sign-in proved, in order, e.g. `['credentials', 'totp']` (the
	 * values are `SignInFactor`s; strings here, as a database session row keeps them). Absent for
	 * sessions made before kitauth recorded it.
	 */
	factors?: string[] | null;
	[field: string]: unknown;
}

/** @deprecated The Auth.js name for {@link Session}. */
export type DefaultSession = Session;

/** A stored database session (the spec's `AdapterSession`). */
export interface AdapterSession {
	sessionToken: string;
	userId: string;
	expires: Date;
	/** kitauth: when the session was created, for the absolute lifetime and the session list. */
	createdAt?: Date | null;
	/** kitauth: a short description of the client (user agent), for the session list. */
	userAgent?: string | null;
	/**
	 * kitauth: what the sign-in that started the session proved (`session.factors`), e.g.
	 * `['credentials', 'totp']`; `null` when not recorded (a session made before kitauth did).
	 */
	factors?: string[] | null;
}

export interface VerificationToken {
	identifier: string;
	/** Hashed with the secret: the raw token never reaches the data store. */
	token: string;
	expires: Date;
}

export interface Authenticator {
	credentialID: string;
	credentialPublicKey: string;
	counter: number;
	credentialDeviceType: string;
	credentialBackedUp: boolean;
	transports?: string | null;
	providerAccountId: string;
	userId?: string;
	/** kitauth: the name the user knows the passkey by ("iCloud Keychain", "Work laptop"). */
	name?: string | null;
	/** kitauth: the authenticator model's AAGUID, as registered (all zeros when it sent none). */
	aaguid?: string | null;
	/** kitauth: when the passkey was registered. */
	createdAt?: Date | null;
	/** kitauth: when the passkey last signed the user in. */
	lastUsedAt?: Date | null;
}

export interface AdapterAuthenticator extends Authenticator {
	userId: string;
}

/**
 * The decoded session token (JWT strategy). Default claims at sign-in are `name`, `email`,
 * `picture` and `sub` (the user id); `iat`, `exp` and `jti` are added when it is encoded.
 */
export interface JWT {
	name?: string | null;
	email?: string | null;
	picture?: string | null;
	sub?: string;
	iat?: number;
	exp?: number;
	jti?: string;
	[claim: string]: unknown;
}
