/**
 * Passkey ceremonies in the browser (`@simplewebauthn/browser`, bundled with the app: no CDN):
 * options from `GET {base}/webauthn-options/<id>`, the ceremony, then the result posted to
 * `POST {base}/callback/<id>` as Auth.js's client posts it (`action`, `data`, `csrfToken`,
 * `callbackUrl`), answered with where to go next.
 */
import {
	browserSupportsWebAuthn,
	browserSupportsWebAuthnAutofill,
	sendSignal,
	startAuthentication,
	startRegistration,
	WebAuthnError,
	type PublicKeyCredentialCreationOptionsJSON,
	type PublicKeyCredentialRequestOptionsJSON
} from '@simplewebauthn/browser';

export interface CeremonyOutcome {
	/** Where the server sends the browser next (also on a refused ceremony), or null when none ran. */
	url: string | null;
	error: string | null;
	code: string | null;
}

type OptionsAnswer =
	| { action: 'authenticate'; options: PublicKeyCredentialRequestOptionsJSON }
	| { action: 'register'; options: PublicKeyCredentialCreationOptionsJSON };

/** Can this browser run passkey ceremonies at all? */
export function passkeysSupported(): boolean {
	return typeof window !== 'undefined' && browserSupportsWebAuthn();
}

/** Does this browser offer passkeys in autofill (conditional mediation)? */
export async function passkeyAutofillSupported(): Promise<boolean> {
	return passkeysSupported() && (await browserSupportsWebAuthnAutofill());
}

/**
 * Tells the browser (WebAuthn Signal API, where it has it) that a credential is not known here any
 * more, so its password manager stops offering it. Best effort: never throws.
 */
export async function forgetPasskey(passkey: { rpId: string; credentialId: string }): Promise<boolean> {
	const api = (globalThis as { PublicKeyCredential?: { signalUnknownCredential?: unknown } }).PublicKeyCredential;
	if (typeof api?.signalUnknownCredential !== 'function') return false;
	try {
		await sendSignal({ signalName: 'unknownCredential', rpID: passkey.rpId, credentialID: passkey.credentialId });
		return true;
	} catch {
		return false;
	}
}

/**
 * Runs one ceremony for provider `id` under `base`: `query` goes to the options request (`action`,
 * `email`), `post` (CSRF token, callback URL) to the callback. `autofill` runs an authentication
 * through the browser's autofill instead of a dialog.
 */
export async function runCeremony(
	base: string,
	id: string,
	query: Record<string, string>,
	post: Record<string, string>,
	autofill = false
): Promise<CeremonyOutcome> {
	const response = await fetch(`${base}/webauthn-options/${encodeURIComponent(id)}?${new URLSearchParams(query)}`, {
		headers: { Accept: 'application/json' }
	});
	const answer = (await response.json().catch(() => null)) as (OptionsAnswer & { error?: string }) | null;
	if (!response.ok || !answer?.options) {
		return { url: null, error: answer?.error ?? `webauthn-options answered ${response.status}`, code: null };
	}
	let data: { id: string };
	try {
		data =
			answer.action === 'authenticate'
				? await startAuthentication({ optionsJSON: answer.options, useBrowserAutofill: autofill })
				: await startRegistration({ optionsJSON: answer.options });
	} catch (error) {
		// Cancelled, timed out, aborted by another ceremony, or refused by the authenticator.
		const code = error instanceof WebAuthnError ? error.code : error instanceof Error ? error.name : 'Error';
		return { url: null, error: 'WebAuthnCeremony', code };
	}
	const callback = await fetch(`${base}/callback/${encodeURIComponent(id)}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Auth-Return-Redirect': '1' },
		body: new URLSearchParams({ ...post, action: answer.action, data: JSON.stringify(data) })
	});
	if (!callback.ok) return { url: null, error: `callback answered ${callback.status}`, code: null };
	const { url } = (await callback.json()) as { url: string };
	const params = new URL(url, window.location.href).searchParams;
	const outcome = { url, error: params.get('error'), code: params.get('code') };
	if (answer.action === 'authenticate' && outcome.code === 'unknown-credential') {
		const rpId = (answer.options as PublicKeyCredentialRequestOptionsJSON).rpId ?? window.location.hostname;
		await forgetPasskey({ rpId, credentialId: data.id });
	}
	return outcome;
}
