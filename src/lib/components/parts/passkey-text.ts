import type { Translator } from '../../i18n/index.js';

/** A passkey provider's sign-in button: "Continue with a passkey", or with the provider's own name. */
export function passkeyLabel(provider: { name: string }, i18n: Translator): string {
	return provider.name === 'Passkey' ? i18n.t('passkey.continue') : i18n.t('passkey.continueWith', { provider: provider.name });
}
