import { need } from '../../adapter.js';
import type { AuthContext } from '../../context.js';
import type { SessionsEnded } from '../../session/end.js';
import { requireRecentAuthentication } from '../../session/recent.js';
import type { SessionRead } from '../../session/types.js';
import type { AdapterAuthenticator } from '../../types/models.js';
import type { WebAuthnConfig } from '../../types/provider.js';
import { base64ToBase64url, base64urlToBase64, isBase64url } from './encoding.js';
import { transportsOf } from './options.js';
import { relyingParty } from './relying-party.js';
import type { PasskeyInfo } from '../../../shared/views.js';

export type { PasskeyInfo };

/** What removing a passkey did. */
export type PasskeyRemoval =
	| {
			removed: true;
			passkey: PasskeyInfo;
			/**
			 * The relying party the passkey was for: the browser may now be told the credential is
			 * gone (`signalUnknownCredential({ rpId, credentialId: passkey.id })`).
			 */
			rpId: string;
			/** The user's sessions ended for it (`session.endOnCredentialChange`); cookies to set. */
			sessionsEnded?: SessionsEnded;
	  }
	| { removed: false; reason: 'not-found' | 'last-sign-in-method' };

function webauthnProviders(ctx: AuthContext): WebAuthnConfig[] {
	return ctx.options.providers.filter((p): p is WebAuthnConfig => p.type === 'webauthn');
}

function userOf(read: SessionRead): string | undefined {
	if (!read.session) return undefined;
	return read.user?.id ?? (typeof read.token?.sub === 'string' ? read.token.sub : undefined);
}

const MAX_NAME = 64;

/** A passkey name as stored: trimmed, single-line, at most 64 characters; `undefined` if empty. */
export function cleanPasskeyName(name: unknown): string | undefined {
	if (typeof name !== 'string') return undefined;
	// Control characters and line breaks out; the rest (any script, emoji) is the user's business.
	const clean = name.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').replace(/\s+/g, ' ').trim();
	return clean ? [...clean].slice(0, MAX_NAME).join('') : undefined;
}

/** The user's authenticators and the WebAuthn provider each belongs to (through its account). */
async function passkeysOf(ctx: AuthContext, userId: string): Promise<{ authenticator: AdapterAuthenticator; provider: string }[]> {
	const providers = webauthnProviders(ctx);
	const adapter = ctx.options.adapter;
	if (!providers.length || !adapter?.listAuthenticatorsByUserId) return [];
	const authenticators = await adapter.listAuthenticatorsByUserId(userId);
	const ids = new Set(providers.map((p) => p.id));
	let owner: (a: AdapterAuthenticator) => string | undefined;
	if (adapter.listAccountsByUserId) {
		const accounts = await adapter.listAccountsByUserId(userId);
		const byAccountId = new Map(accounts.filter((a) => a.type === 'webauthn' && ids.has(a.provider)).map((a) => [a.providerAccountId, a.provider]));
		owner = (a) => byAccountId.get(a.providerAccountId);
	} else {
		const only = providers.length === 1 ? providers[0]!.id : undefined;
		owner = () => only;
	}
	return authenticators.flatMap((authenticator) => {
		const provider = owner(authenticator);
		return provider ? [{ authenticator, provider }] : [];
	});
}

function info(authenticator: AdapterAuthenticator, provider: string): PasskeyInfo {
	return {
		id: base64ToBase64url(authenticator.credentialID),
		provider,
		name: authenticator.name || 'Passkey',
		createdAt: authenticator.createdAt?.toISOString() ?? null,
		lastUsedAt: authenticator.lastUsedAt?.toISOString() ?? null,
		deviceType: authenticator.credentialDeviceType === 'multiDevice' ? 'multiDevice' : 'singleDevice',
		backedUp: authenticator.credentialBackedUp,
		transports: transportsOf(authenticator.transports) ?? []
	};
}

/** The signed-in user's passkeys, newest first; `[]` when signed out. */
export async function listPasskeys(ctx: AuthContext, read: SessionRead): Promise<PasskeyInfo[]> {
	const userId = userOf(read);
	if (!userId) return [];
	const list = await passkeysOf(ctx, userId);
	return list
		.sort((a, b) => (b.authenticator.createdAt?.getTime() ?? 0) - (a.authenticator.createdAt?.getTime() ?? 0))
		.map(({ authenticator, provider }) => info(authenticator, provider));
}

/** One of the signed-in user's passkeys by its id, or nothing (unknown, malformed or someone else's). */
async function ownPasskey(ctx: AuthContext, read: SessionRead, id: unknown) {
	const userId = userOf(read);
	if (!userId || !isBase64url(id, 2048)) return undefined;
	const credentialID = base64urlToBase64(id);
	const found = (await passkeysOf(ctx, userId)).find((p) => p.authenticator.credentialID === credentialID);
	return found ? { ...found, userId } : undefined;
}

/** Renames one of the user's passkeys. `false` when it is not theirs or the name is empty. */
export async function renamePasskey(ctx: AuthContext, read: SessionRead, id: string, name: string): Promise<boolean> {
	const clean = cleanPasskeyName(name);
	if (!clean) return false;
	const own = await ownPasskey(ctx, read, id);
	if (!own) return false;
	const store = need(ctx.options.adapter!, 'updateAuthenticatorName');
	return (await store.updateAuthenticatorName(own.authenticator.credentialID, clean)) !== null;
}

/**
 * Removes one of the user's passkeys: needs a recent sign-in (throws `ReauthenticationRequired`),
 * and is refused when it is the user's last way to sign in (no other passkey or linked account,
 * and no email sign-in configured for a user with an address).
 */
export async function removePasskey(
	ctx: AuthContext,
	read: SessionRead,
	id: string,
	options: { maxAge?: number } = {}
): Promise<PasskeyRemoval> {
	if (!userOf(read)) return { removed: false, reason: 'not-found' };
	requireRecentAuthentication(read, options.maxAge);
	const own = await ownPasskey(ctx, read, id);
	if (!own) return { removed: false, reason: 'not-found' };
	const store = need(ctx.options.adapter!, 'deleteAuthenticator', 'unlinkAccount');
	if (!(await hasAnotherWayIn(ctx, own.userId, read, own.authenticator))) return { removed: false, reason: 'last-sign-in-method' };
	// The authenticator first: without it the passkey cannot sign in, whatever happens next.
	await store.deleteAuthenticator(own.authenticator.credentialID);
	await store.unlinkAccount({ provider: own.provider, providerAccountId: own.authenticator.providerAccountId });
	const provider = webauthnProviders(ctx).find((p) => p.id === own.provider)!;
	return { removed: true, passkey: info(own.authenticator, own.provider), rpId: relyingParty(ctx, provider).id };
}

async function hasAnotherWayIn(ctx: AuthContext, userId: string, read: SessionRead, removing: AdapterAuthenticator): Promise<boolean> {
	const adapter = ctx.options.adapter!;
	if (adapter.listAccountsByUserId) {
		const accounts = await adapter.listAccountsByUserId(userId);
		if (accounts.some((a) => !(a.type === 'webauthn' && a.providerAccountId === removing.providerAccountId))) return true;
	} else if ((await passkeysOf(ctx, userId)).length > 1) {
		return true;
	}
	// An email sign-in reaches any user with an address, account row or not.
	const email = read.user?.email ?? read.session?.user?.email;
	return !!email && ctx.options.providers.some((p) => (p.type as string) === 'email');
}
