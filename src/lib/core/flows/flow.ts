import type { AuthContext } from '../context.js';
import type { Identity } from '../login.js';
import type { UserResolution } from '../users.js';
import type { AuthConfig, SessionOptions } from '../types/config.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import type { CredentialInput, ProviderConfig } from '../types/provider.js';

/** What a callback yields: a proven identity for the login step, or an answer of its own. */
export type CallbackOutcome = { identity: Identity } | { response: ResponseInternal };

/** What a flow's start-up checks may look at. */
export interface FlowSetup {
	config: AuthConfig;
	session: SessionOptions;
}

/**
 * How one type of provider signs a user in. Every type-specific step lives here, so the actions,
 * the server API and the integrations ask the table (`flows/index.ts`) instead of branching on
 * `provider.type`; a new type is one more entry.
 */
export interface Flow<P extends ProviderConfig> {
	/** Configuration mistakes of such a provider, found at start-up (throws the matching error). */
	assert(provider: P, setup: FlowSetup): void;
	/**
	 * Fields a preset is called with from the environment (`AUTH_<ID>_SECRET` → `clientSecret`),
	 * by variable suffix. Types without any read none.
	 */
	env?: Readonly<Record<string, string>>;
	/**
	 * POST /signin/<id>: starts the sign-in (a redirect to the provider, a link sent). A type
	 * without it proves the user on its callback alone (credentials, passkeys): the sign-in page is
	 * shown, and forms post to its callback (`shared/endpoints.ts`, which must agree).
	 * `callbackUrl` is where the sign-in lands, already checked (an emailed link carries it).
	 */
	start?(req: RequestInternal, ctx: AuthContext, provider: P, callbackUrl: string): Promise<ResponseInternal>;
	/**
	 * How the user of what the callback proves is found, created or linked (`users.ts`): an account
	 * at a provider, a mailbox, or the app's own word. The login step asks it, never the type.
	 */
	users: UserResolution;
	callback: {
		/** The methods the callback answers; any other is a 400. */
		methods: readonly RequestInternal['method'][];
		/**
		 * What ties a callback to the user's own browser: the double-submit CSRF token in its body
		 * (`token`), or sealed, provider-bound check cookies set at the start (`checks`) — then a
		 * cross-site POST is by design (an identity provider's `form_post`).
		 */
		protection: 'token' | 'checks';
		run(req: RequestInternal, ctx: AuthContext, provider: P): Promise<CallbackOutcome>;
	};
	/**
	 * GET /verify-request?provider=<id>: the "check your email" page of a type that has more to
	 * say on it (email: the one-time code field). Without it, the plain page is shown.
	 */
	verifyRequest?(req: RequestInternal, ctx: AuthContext, provider: P): ResponseInternal | Promise<ResponseInternal>;
	/** GET /webauthn-options/<id>: options of a browser ceremony (passkeys), for types that have one. */
	options?(req: RequestInternal, ctx: AuthContext, provider: P): Promise<ResponseInternal>;
	/**
	 * Does the user have this way to sign in whatever accounts are linked (a link or code sent to
	 * their address; a password stored for them)? Then unlinking their last account still leaves
	 * them one. Without it, such a provider gives no way in beyond linked accounts.
	 */
	keepsSignIn?(ctx: AuthContext, provider: P, user: { id: string; email?: string | null }): boolean | Promise<boolean>;
	/** What a browser may know of such a provider beyond id, name and type (no secrets). */
	publicView?(provider: P): {
		credentials?: Record<string, CredentialInput>;
		/** WebAuthn: the sign-in form's fields and whether passkeys are offered in autofill. */
		webauthn?: { formFields: Record<string, CredentialInput>; enableConditionalUI: boolean };
		/** The form fields a refused sign-in shows again (never a secret). */
		keptFields?: readonly string[];
	};
}
