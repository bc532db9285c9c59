import { base64url, randomBytes, sha256 } from '../../crypto/index.js';
import type { AuthContext } from '../../context.js';
import { InvalidCheck, WebAuthnVerificationError } from '../../errors.js';
import { openChecks, sealCheck } from '../../session/checks.js';
import type { Adapter } from '../../types/adapter.js';
import type { Cookie } from '../../types/internal.js';
import type { WebAuthnConfig } from '../../types/provider.js';

export type Ceremony = 'authenticate' | 'register';

/** The user a registration is for (sealed in the challenge cookie, never taken from the callback). */
export interface RegisteringUser {
	email: string;
	name?: string | null;
}

/** What the challenge cookie carries from the options to the callback. */
export interface ChallengeState {
	challenge: string;
	ceremony: Ceremony;
	/** Registration: the user the passkey is for. */
	user?: RegisteringUser;
	/** The user signed in when the options were issued (adding a passkey, re-authenticating). */
	signedInAs?: string;
}

type ChallengeStore = Required<Pick<Adapter, 'createVerificationToken' | 'useVerificationToken'>>;

/** Default ceremony timeout and challenge lifetime: 5 minutes. */
export const DEFAULT_TIMEOUT_MS = 300_000;

export function timeoutOf(provider: WebAuthnConfig): number {
	const timeout = provider.timeout;
	return typeof timeout === 'number' && Number.isFinite(timeout) && timeout >= 30_000 && timeout <= 600_000
		? Math.round(timeout)
		: DEFAULT_TIMEOUT_MS;
}

/**
 * A fresh challenge: 32 random bytes (W3C asks for at least 16), and their base64url form (what
 * the options carry and the client data echoes).
 */
export function newChallenge(): { bytes: Uint8Array<ArrayBuffer>; encoded: string } {
	const bytes = new Uint8Array(new ArrayBuffer(32));
	bytes.set(randomBytes(32));
	return { bytes, encoded: base64url(bytes) };
}

/**
 * The verification-token row that makes a challenge single-use. The identifier is no email and
 * the token a hash under its own domain (ceremony and provider included), so neither can be taken
 * for an email sign-in's token, nor a challenge for another provider's or ceremony's.
 */
async function challengeRow(providerId: string, ceremony: Ceremony, challenge: string) {
	const token = await sha256(`kitauth.webauthn-challenge\u0000${providerId}\u0000${ceremony}\u0000${challenge}`, 'hex');
	return { identifier: `webauthn-challenge:${providerId}`, token };
}

/**
 * Issues a challenge: remembered server-side (one verification-token row, deleted when used) and
 * sealed, with what the callback needs, into the challenge cookie — encrypted, bound to the
 * provider and the ceremony, and living as long as the ceremony may take.
 */
export async function issueChallenge(
	ctx: AuthContext,
	store: ChallengeStore,
	provider: WebAuthnConfig,
	state: ChallengeState
): Promise<Cookie> {
	const ttl = Math.ceil(timeoutOf(provider) / 1000);
	await store.createVerificationToken({
		...(await challengeRow(provider.id, state.ceremony, state.challenge)),
		expires: new Date(Date.now() + ttl * 1000)
	});
	return sealCheck(ctx, 'webauthnChallenge', JSON.stringify(state), provider.id, { maxAge: ttl });
}

function refuse(message: string, cause?: unknown): never {
	throw new WebAuthnVerificationError(message, cause instanceof Error ? { cause } : undefined);
}

/**
 * Takes the challenge of a callback: the cookie must be this provider's, for this ceremony, and
 * still unused on the server (the row is deleted by this very call, so a replay finds nothing).
 * The cookie is cleared whatever happens.
 */
export async function consumeChallenge(
	ctx: AuthContext,
	store: ChallengeStore,
	requestCookies: Record<string, string>,
	provider: WebAuthnConfig,
	ceremony: Ceremony
): Promise<ChallengeState> {
	let sealed: string;
	try {
		sealed = (await openChecks(ctx, requestCookies, provider.id, ['webauthnChallenge'])).webauthnChallenge;
	} catch (error) {
		if (error instanceof InvalidCheck) refuse(`challenge cookie: ${error.message}`, error);
		throw error;
	}
	const state = parseState(sealed);
	if (!state) refuse('the challenge cookie holds no challenge');
	if (state.ceremony !== ceremony) refuse(`a ${state.ceremony} challenge was used to ${ceremony}`);
	const row = await store.useVerificationToken(await challengeRow(provider.id, ceremony, state.challenge));
	if (!row) refuse('the challenge was already used (or never issued here)');
	if (row.expires.getTime() <= Date.now()) refuse('the challenge expired');
	return state;
}

function parseState(value: string): ChallengeState | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(value);
	} catch {
		return undefined;
	}
	if (!parsed || typeof parsed !== 'object') return undefined;
	const state = parsed as Partial<ChallengeState>;
	if (typeof state.challenge !== 'string' || (state.ceremony !== 'authenticate' && state.ceremony !== 'register')) return undefined;
	return state as ChallengeState;
}
