import type { JWT } from '../types/models.js';
import type { Cookie } from '../types/internal.js';
import type { Account, AdapterUser, Profile, Session, User } from '../types/models.js';
import type { SignInFactor } from '../types/two-factor.js';

/** The result of reading (or updating) a session, for either strategy. */
export interface SessionRead {
	session: Session | null;
	/** Cookies to set: a refreshed session cookie, or deletions of a dead one. */
	cookies: Cookie[];
	token?: JWT;
	user?: AdapterUser;
	/** Database sessions: the key the session is stored under (its token's hash, usually). */
	key?: string;
	/**
	 * When the user last proved who they are (a sign-in or re-authentication), in seconds since the
	 * epoch; absent when unknown (a session made before kitauth recorded it).
	 */
	authTime?: number;
}

/** What a completed sign-in hands to the session strategy. */
export interface SessionStart {
	user: User & { id: string };
	account: Account | null;
	profile?: Profile;
	isNewUser: boolean;
	/** What the sign-in proved (`session.factors`). */
	factors?: SignInFactor[];
	userAgent?: string | null;
}
