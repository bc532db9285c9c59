/**
 * What the two-factor components say, in one place per component (the parts, the wrappers, the
 * built-in pages and the gallery share it), ready to move into a message catalogue.
 */
export const CHALLENGE_TEXT = {
	heading: 'Two-step verification',
	intro: 'Enter the 6-digit code from your authenticator app, or one of your backup codes.',
	code: 'Code',
	remember: 'Remember this browser',
	rememberDays: (days: number) => `Remember this browser for ${days} ${days === 1 ? 'day' : 'days'}`,
	submit: 'Verify',
	cancel: 'Sign in another way'
} as const;

export const SETUP_TEXT = {
	heading: 'Two-step verification',
	intro: 'Protect your account with a code from an authenticator app each time you sign in.',
	required: 'Your account needs two-step verification. Set it up to finish signing in.',
	scan: 'Scan this QR code with your authenticator app.',
	qrLabel: (issuer: string) => `QR code for ${issuer}: scan it with your authenticator app`,
	manual: 'Or enter this key by hand:',
	code: 'Code from the app',
	submit: 'Turn on',
	submitSignIn: 'Verify and continue',
	on: 'Two-step verification is on.',
	disable: 'Turn off',
	forgetDevices: 'Forget remembered browsers'
} as const;

export const BACKUP_TEXT = {
	heading: 'Backup codes',
	fresh: 'Save these codes somewhere safe. Each works once, if you cannot use your app. They will not be shown again.',
	left: (count: number) => `${count} backup ${count === 1 ? 'code' : 'codes'} left.`,
	regenerate: 'Make new backup codes',
	regenerateHint: 'New codes replace all the old ones.',
	continue: 'Continue'
} as const;
