/** What the passkey components say, in one place (the button, its part and the gallery share it). */
export const PASSKEY_TEXT = {
	signIn: 'Sign in with a passkey',
	add: 'Add a passkey',
	confirm: 'Confirm with a passkey',
	/** The button stays disabled until the page's script runs; without JavaScript, this says why. */
	noScript: 'Passkeys need JavaScript, which is off in this browser.',
	unsupported: 'This browser cannot use passkeys.',
	pending: 'Waiting for your passkey…',
	closed: 'The passkey prompt was closed or timed out.',
	registered: 'This device already holds a passkey for your account.',
	emailNeeded: 'Enter your email to create a passkey.',
	failed: 'The passkey could not be used. Try again.'
} as const;
