/**
 * What the server API hands an app's account pages and the components render: the signed-in
 * user's linked accounts, sessions and passkeys, without tokens or key material. The core makes
 * them (and re-exports these types); the components only show them.
 */

/** An account linked to the signed-in user, as an app may show it: no tokens. */
export interface LinkedAccount {
	provider: string;
	type: string;
	providerAccountId: string;
	/** May it be unlinked? Only while another way to sign in remains (see `unlinkAccount`). */
	unlinkable: boolean;
}

/** One of a user's sessions as the app may show it: no token, an opaque id to revoke it by. */
export interface SessionInfo {
	id: string;
	/** Is this the session of the request asking? */
	current: boolean;
	createdAt: string | null;
	expires: string;
	userAgent: string | null;
}

/** A page of the signed-in user's sessions: this one apart, then the others, newest first. */
export interface SessionPage {
	/** This request's session; `null` when signed out. On every page, so the app can mark it. */
	current: SessionInfo | null;
	/** The user's other live sessions on this page, newest first. */
	others: SessionInfo[];
	/** How many other live sessions the user has in all. */
	totalOthers: number;
	/** The `cursor` of the next page; `null` on the last one. */
	nextCursor: string | null;
}

/** One of the signed-in user's passkeys, as a page may show it (no key material). */
export interface PasskeyInfo {
	/** The credential id, base64url (as the browser knows it): rename or remove by it. */
	id: string;
	/** The WebAuthn provider it signs in with. */
	provider: string;
	name: string;
	/** ISO dates, or null when unknown (passkeys registered before kitauth kept them). */
	createdAt: string | null;
	lastUsedAt: string | null;
	/** Synced (a multi-device credential) or bound to one authenticator. */
	deviceType: 'singleDevice' | 'multiDevice';
	backedUp: boolean;
	transports: string[];
}
