import { randomBytes } from '../../crypto/index.js';
import type { AuthContext } from '../../context.js';
import { NO_CACHE } from '../../response.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { AdapterUser } from '../../types/models.js';
import type { WebAuthnConfig } from '../../types/provider.js';
import { type Ceremony, issueChallenge, newChallenge, timeoutOf } from './challenge.js';
import { base64ToBase64url } from './encoding.js';
import { relyingParty } from './relying-party.js';
import { type WebAuthnStore, webauthnStore } from './store.js';
import { simpleWebAuthn } from './lazy.js';

/** Who the options are for: a stored user, or a new one naming an email. */
interface UserInfo {
	user: { id?: string; email: string; name?: string | null };
	exists: boolean;
}

function jsonAnswer(status: number, body: unknown, cookies = [] as ResponseInternal['cookies']): ResponseInternal {
	return { status, headers: { ...NO_CACHE, 'Content-Type': 'application/json' }, body, cookies };
}

/**
 * GET /webauthn-options/<id>?action=register|authenticate&email=…: which ceremony, and its
 * options, decided as Auth.js decides (`inferWebAuthnOptions`):
 * - `authenticate` always authenticates (limited to the user's passkeys when the user is known);
 * - `register` needs a user: the signed-in one (adding a passkey), or, signed out, an email no
 *   user has yet (signing up);
 * - no action, signed out: a known email authenticates, an unknown one registers, none gives a
 *   discoverable-credential authentication; no action while signed in is a 400.
 */
export async function webauthnOptions(req: RequestInternal, ctx: AuthContext, provider: WebAuthnConfig): Promise<ResponseInternal> {
	const action = req.query.action;
	if (action !== undefined && action !== 'register' && action !== 'authenticate') {
		return jsonAnswer(400, { error: 'Invalid action' });
	}
	const store = webauthnStore(ctx);
	const signedInAs = await ctx.options.strategy.userId(ctx);
	const sessionUser = signedInAs ? await store.getUser(signedInAs) : null;
	const info = sessionUser ? { user: sessionUser, exists: true } : await userByEmail(store, req.query.email);
	const decision = decide(action, sessionUser !== null, info);
	if (decision === 'register' && info) {
		return registration(ctx, store, provider, info.user, sessionUser);
	}
	if (decision === 'authenticate') return authentication(ctx, store, provider, info?.exists ? info.user : undefined, sessionUser);
	return jsonAnswer(400, { error: 'Invalid request' });
}

function decide(action: Ceremony | undefined, signedIn: boolean, info: UserInfo | null): Ceremony | null {
	if (action === 'authenticate') return 'authenticate';
	if (action === 'register') return info && signedIn === info.exists ? 'register' : null;
	if (signedIn) return null;
	if (!info) return 'authenticate';
	return info.exists ? 'authenticate' : 'register';
}

/**
 * The user an `email` names, or a new user with it. The address is normalized (NFKC, trimmed,
 * lower-cased) before it is checked, and must be a single plain address.
 */
async function userByEmail(store: WebAuthnStore, raw: string | undefined): Promise<UserInfo | null> {
	const email = normalizeEmail(raw);
	if (!email) return null;
	const found = await store.getUserByEmail(email);
	return found ? { user: found, exists: true } : { user: { email }, exists: false };
}

const EMAIL = /^[^\s@",;:<>()[\]\\]{1,64}@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

export function normalizeEmail(raw: unknown): string | undefined {
	if (typeof raw !== 'string' || raw.length > 320) return undefined;
	const email = raw.normalize('NFKC').trim().toLowerCase();
	return email.length <= 254 && EMAIL.test(email) ? email : undefined;
}

async function registration(
	ctx: AuthContext,
	store: WebAuthnStore,
	provider: WebAuthnConfig,
	user: UserInfo['user'],
	sessionUser: AdapterUser | null
): Promise<ResponseInternal> {
	const rp = relyingParty(ctx, provider);
	const existing = sessionUser ? await store.listAuthenticatorsByUserId(sessionUser.id) : [];
	const challenge = newChallenge();
	const { generateRegistrationOptions } = await simpleWebAuthn();
	const options = await generateRegistrationOptions({
		rpName: rp.name,
		rpID: rp.id,
		userName: user.email,
		userDisplayName: user.name ?? user.email,
		// A random handle per registration, as Auth.js: the real user id never reaches the authenticator.
		userID: randomBytes(32),
		challenge: challenge.bytes,
		timeout: timeoutOf(provider),
		attestationType: 'none',
		excludeCredentials: existing.map((a) => ({ id: base64ToBase64url(a.credentialID), transports: transportsOf(a.transports) })),
		authenticatorSelection: provider.registrationOptions?.authenticatorSelection ?? {
			residentKey: 'preferred',
			userVerification: 'preferred'
		},
		supportedAlgorithmIDs: provider.registrationOptions?.supportedAlgorithmIDs,
		preferredAuthenticatorType: provider.registrationOptions?.preferredAuthenticatorType
	});
	const cookie = await issueChallenge(ctx, store, provider, {
		challenge: challenge.encoded,
		ceremony: 'register',
		user: { email: user.email, name: user.name ?? null },
		signedInAs: sessionUser?.id
	});
	return jsonAnswer(200, { action: 'register', options }, [cookie]);
}

async function authentication(
	ctx: AuthContext,
	store: WebAuthnStore,
	provider: WebAuthnConfig,
	user: UserInfo['user'] | undefined,
	sessionUser: AdapterUser | null
): Promise<ResponseInternal> {
	const rp = relyingParty(ctx, provider);
	const authenticators = user?.id ? await store.listAuthenticatorsByUserId(user.id) : [];
	const challenge = newChallenge();
	const { generateAuthenticationOptions } = await simpleWebAuthn();
	const options = await generateAuthenticationOptions({
		rpID: rp.id,
		challenge: challenge.bytes,
		timeout: timeoutOf(provider),
		userVerification: provider.authenticationOptions?.userVerification ?? 'preferred',
		allowCredentials: authenticators.length
			? authenticators.map((a) => ({ id: base64ToBase64url(a.credentialID), transports: transportsOf(a.transports) }))
			: undefined
	});
	const cookie = await issueChallenge(ctx, store, provider, { challenge: challenge.encoded, ceremony: 'authenticate', signedInAs: sessionUser?.id });
	return jsonAnswer(200, { action: 'authenticate', options }, [cookie]);
}

const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** Stored transports (comma-joined, as Auth.js stores them) → the known ones. */
export function transportsOf(stored: string | null | undefined): ('ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb')[] | undefined {
	if (!stored) return undefined;
	const list = stored.split(',').filter((t) => TRANSPORTS.has(t)) as ('ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb')[];
	return list.length ? list : undefined;
}
