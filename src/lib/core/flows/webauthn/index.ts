import { AccountNotLinked, ExperimentalFeatureNotEnabled, InvalidProvider, MissingAdapter, MissingAdapterMethods } from '../../errors.js';
import { limitAttempt } from '../../limit/attempt.js';
import type { CredentialInput, WebAuthnConfig } from '../../types/provider.js';
import { byLinkedAccount } from '../../users.js';
import type { Flow } from '../flow.js';
import { webauthnCallback } from './callback.js';
import { webauthnOptions } from './options.js';
import { assertRelyingParty } from './relying-party.js';
import { WEBAUTHN_METHODS } from './store.js';

/** The sign-in form's fields when the provider names none (Auth.js's default, autofill-ready). */
export const DEFAULT_FORM_FIELDS: Record<string, CredentialInput> = Object.freeze({
	email: { label: 'Email', required: true, autocomplete: 'username webauthn' }
});

/**
 * WebAuthn (passkeys): the browser runs a ceremony with options from GET /webauthn-options/<id>
 * and posts the result to the callback, which verifies it; there is no start. Experimental (as in
 * Auth.js): a provider of this type needs `experimental.enableWebAuthn`.
 */
export const webauthnFlow: Flow<WebAuthnConfig> = {
	assert(provider, { config }) {
		if (!config.experimental?.enableWebAuthn) {
			throw new ExperimentalFeatureNotEnabled(`WebAuthn provider "${provider.id}" needs experimental.enableWebAuthn.`);
		}
		if (!config.adapter) throw new MissingAdapter(`WebAuthn provider "${provider.id}" needs an adapter to store passkeys.`);
		const missing = WEBAUTHN_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
		if (missing.length) {
			throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for WebAuthn provider "${provider.id}".`);
		}
		assertRelyingParty(provider);
		if (provider.authenticatorName !== undefined && typeof provider.authenticatorName !== 'function') {
			throw new InvalidProvider(`authenticatorName of "${provider.id}" must be a function`);
		}
	},
	// A passkey is an account like any other (Auth.js links it the same way), refused as `AccountNotLinked`.
	users: byLinkedAccount(AccountNotLinked),
	callback: {
		methods: ['POST'],
		// Auth.js's client sends the CSRF token; the callback also needs the challenge cookie.
		protection: 'token',
		async run(req, ctx, provider) {
			// Failures count against the address; a ceremony that verifies is refunded.
			const succeeded = await limitAttempt(ctx, req, 'webauthn-callback');
			const identity = await webauthnCallback(req, ctx, provider);
			await succeeded();
			return { identity };
		}
	},
	async options(req, ctx, provider) {
		// Every options request stores a challenge: bounded per client address.
		await limitAttempt(ctx, req, 'webauthn-options');
		return webauthnOptions(req, ctx, provider);
	},
	publicView: (provider) => ({
		webauthn: {
			formFields: provider.formFields ?? DEFAULT_FORM_FIELDS,
			enableConditionalUI: provider.enableConditionalUI !== false
		}
	})
};
