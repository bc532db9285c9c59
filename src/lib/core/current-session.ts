import type { AuthContext } from './context.js';
import { accessToken } from './flows/oauth/access-token.js';
import { listPasskeys, type PasskeyRemoval, removePasskey, renamePasskey } from './flows/webauthn/manage.js';
import { linkedAccounts, type SignInMethodsHint, unlinkAccount, type UnlinkResult } from './accounts.js';
import { credentialsChanged, endUserSessions, type SessionsEnded, sessionUserId } from './session/end.js';
import { listSessionPage, listSessions, revokeOtherSessions, revokeSession, type SessionPageOptions } from './session/manage.js';
import { authenticatedAt, recentlyAuthenticated, requireRecentAuthentication } from './session/recent.js';
import type { SessionRead } from './session/types.js';
import type { CredentialChange } from './types/config.js';
import type { Cookie } from './types/internal.js';
import type { Session } from './types/models.js';
import type { CurrentSession, PasskeyManager } from './types/server.js';
import type { TwoFactorManager } from './types/two-factor.js';
import { twoFactorManager } from './factors/manage.js';

const none = (): SessionsEnded => ({ deleted: 0, jwtRevoked: false, cookies: [] });

/**
 * One request's session and what may be done with it (`server.session()`'s answer). Every page
 * that reads a session makes one, and most use only `session` and `cookies`: so the methods are
 * getters on the prototype, each making its function when asked (destructuring still works: the
 * getter runs then), instead of twenty closures made on every read.
 */
export class RequestSession implements CurrentSession {
	readonly session: Session | null;
	readonly cookies: readonly Cookie[];
	readonly #ctx: AuthContext;
	readonly #read: SessionRead;
	readonly #asking: { read: SessionRead };
	readonly #userId: string | undefined;
	/**
	 * One look-up (and at most one refresh) per provider for the request, however many of its
	 * callers ask at once (remote functions rendered together, say). Made on the first ask.
	 */
	#tokens: Map<string, Promise<string | null>> | undefined;

	constructor(ctx: AuthContext, read: SessionRead) {
		this.session = read.session;
		this.cookies = read.cookies;
		this.#ctx = ctx;
		this.#read = read;
		this.#asking = { read };
		this.#userId = sessionUserId(read);
		Object.freeze(this);
	}

	get listSessions() {
		return () => listSessions(this.#ctx, this.#read);
	}
	get listSessionPage() {
		return (options?: SessionPageOptions) => listSessionPage(this.#ctx, this.#read, options);
	}
	get revokeSession() {
		return (id: string) => revokeSession(this.#ctx, id, this.#read);
	}
	get revokeOtherSessions() {
		return async (options: { maxAge?: number } = {}) => {
			// Signed out there is nothing to revoke (and nobody to ask to re-authenticate).
			if (this.#read.session) requireRecentAuthentication(this.#read, options.maxAge);
			return revokeOtherSessions(this.#ctx, this.#read);
		};
	}
	get endAllSessions() {
		return async () => (this.#userId ? endUserSessions(this.#ctx, this.#userId, 'all', this.#asking) : none());
	}
	get credentialsChanged() {
		return async (change: CredentialChange, options: { endSessions?: 'others' | 'all' | 'none' } = {}) =>
			this.#userId ? credentialsChanged(this.#ctx, this.#userId, change, this.#asking, options.endSessions) : none();
	}
	get authenticatedAt() {
		return authenticatedAt(this.#read);
	}
	get recentlyAuthenticated() {
		return (maxAge?: number) => recentlyAuthenticated(this.#read, maxAge);
	}
	get requireRecentAuthentication() {
		return (maxAge?: number) => requireRecentAuthentication(this.#read, maxAge);
	}
	get twoFactor(): TwoFactorManager {
		return twoFactorManager(this.#ctx, this.#read);
	}
	get passkeys(): PasskeyManager {
		const ctx = this.#ctx;
		const read = this.#read;
		const userId = this.#userId;
		const asking = this.#asking;
		return Object.freeze({
			list: () => listPasskeys(ctx, read),
			rename: (id: string, name: string) => renamePasskey(ctx, read, id, name),
			remove: async (id: string, options?: { maxAge?: number }): Promise<PasskeyRemoval> => {
				const result = await removePasskey(ctx, read, id, options);
				if (!result.removed || !userId) return result;
				return { ...result, sessionsEnded: await credentialsChanged(ctx, userId, 'passkey-removed', asking) };
			}
		});
	}
	get linkedAccounts() {
		return (hint?: SignInMethodsHint) => linkedAccounts(this.#ctx, this.#read, hint);
	}
	get unlinkAccount() {
		return async (provider: string, options?: SignInMethodsHint & { providerAccountId?: string }): Promise<UnlinkResult> => {
			const result = await unlinkAccount(this.#ctx, this.#read, provider, options);
			if (!result.ok || !this.#userId) return result;
			return { ...result, sessionsEnded: await credentialsChanged(this.#ctx, this.#userId, 'account-unlinked', this.#asking) };
		};
	}
	get accessToken() {
		return (providerId: string) => {
			const tokens = (this.#tokens ??= new Map());
			let token = tokens.get(providerId);
			if (!token) {
				token = accessToken(this.#ctx, this.#read, providerId);
				tokens.set(providerId, token);
			}
			return token;
		};
	}
}
