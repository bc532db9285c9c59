/**
 * A provider as a browser may know it (what the sign-in forms are given), and the parts of a
 * provider's configuration its form is made of. The built-in pages and the components both need
 * them, so they live here rather than in the core, whose public types re-export them.
 */

import type { PlainKey } from '../i18n/index.js';

export type ProviderType = 'oauth' | 'oidc' | 'email' | 'credentials' | 'webauthn';

/** How the built-in sign-in page styles a provider's button. */
export interface ProviderStyle {
	logo?: string;
	bg?: string;
	text?: string;
}

/**
 * One field of a credentials form: a label plus any HTML input attribute (`type`, `placeholder`,
 * `required`, `autocomplete`, …), rendered on the built-in sign-in page.
 */
export interface CredentialInput {
	label?: string;
	/**
	 * The catalogue key of its label (`password.email`): the forms show it in the page's language,
	 * `label` where the key is missing. `Password()`'s fields have one.
	 */
	labelKey?: PlainKey;
	type?: string;
	placeholder?: string;
	required?: boolean;
	autocomplete?: string;
	value?: string;
	[attribute: string]: unknown;
}

/** A provider as a sign-in form needs it: no secrets, no functions. */
export interface ClientProvider {
	id: string;
	name: string;
	type: ProviderType;
	/** Credentials providers: the form's fields. */
	credentials?: Record<string, CredentialInput>;
	/** The button's brand colours (and a logo URL), when the provider has them. */
	style?: ProviderStyle;
	/** WebAuthn providers: the sign-in form's fields, and whether passkeys are offered in autofill. */
	webauthn?: { formFields: Record<string, CredentialInput>; enableConditionalUI: boolean };
	/**
	 * The fields of its sign-in form whose values a refused sign-in shows again (an email form's
	 * address, credentials' fields that are not passwords); never a secret.
	 */
	keptFields?: readonly string[];
}
