import type { Message } from './message.js';

/**
 * English: the source catalogue. Its keys are every key there is (TypeScript derives `MessageKey`
 * and each key's parameters from it); every other catalogue falls back to it key by key.
 *
 * Adding a string: add its key here, then to each shipped catalogue (`de.ts`, `fr.ts`, …): the
 * completeness test names the catalogues that lack it. A plural message has a text per plural
 * category of the locale (`Intl.PluralRules`), and `{count}` in it.
 */
export const en = {
	// Sign-in
	'signIn.heading': 'Sign in',
	'signIn.withProvider': 'Sign in with {provider}',
	'signIn.submit': 'Sign in',
	'signIn.or': 'or',
	'signIn.empty': 'No sign-in methods are configured.',
	'signIn.email': 'Email address',
	'signIn.back': 'Back to sign-in',
	'signIn.continue': 'Continue',
	'signIn.emailLink': 'Email me a sign-in link',
	'signIn.usePasskey': 'Use a passkey',
	'signIn.changeEmail': 'Use a different email address',

	// What a refused or failed sign-in says (the `?error=` values and the form actions' refusals)
	'signIn.error.differentAccount': 'Try signing in with a different account.',
	'signIn.error.callback': 'The sign-in provider refused or cancelled the request. Try again.',
	'signIn.error.notLinked':
		'This email is already used with another sign-in method. Sign in the way you did before, then link this one.',
	'signIn.error.emailSignin': 'The sign-in email could not be sent. Check the address and try again.',
	'signIn.error.credentials': 'Sign in failed. Check the details you provided are correct.',
	'signIn.error.sessionRequired': 'Please sign in to access this page.',
	'signIn.error.csrf': 'The form expired. Please try again.',
	'signIn.error.webauthn': 'The passkey could not be verified. Try again.',
	'signIn.error.rateLimited': 'Too many attempts. Wait a little, then try again.',
	'signIn.error.rateLimitedTitle': 'Too many attempts',
	'signIn.error.twoFactorExpired': 'Your sign-in expired before the second step. Sign in again.',
	'signIn.error.busy': 'The sign-in service is busy right now. Nothing was changed: try again in a moment.',
	'signIn.error.default': 'Unable to sign in.',

	// The error page
	'error.configuration.heading': 'Server error',
	'error.configuration.message': 'There is a problem with the server configuration. Check the server logs for more information.',
	'error.accessDenied.heading': 'Access denied',
	'error.accessDenied.message': 'You do not have permission to sign in.',
	'error.verification.heading': 'Unable to sign in',
	'error.verification.message': 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
	'error.providerUnavailable.heading': 'Sign-in provider unavailable',
	'error.providerUnavailable.message': 'The sign-in provider could not be reached. Try again in a moment.',
	'error.unavailable.heading': 'Temporarily unavailable',
	'error.default.heading': 'Error',
	'error.default.message': 'Something went wrong while signing in.',
	'error.signIn': 'Sign in',
	'error.home': 'Go to the home page',

	// "Check your email", and its one-time code form
	'verify.heading': 'Check your email',
	'verify.sentTo': 'A sign-in link has been sent to {email}.',
	'verify.sent': 'A sign-in link has been sent to your email address.',
	'verify.orCode': 'Follow it, or enter the code from the email here.',
	'verify.code': 'Code from the email',
	'verify.codeSubmit': 'Sign in with the code',
	'verify.backTo': 'Back to {host}',
	'verify.back': 'Back to the site',
	'verify.codeWrong': {
		one: 'That code is not right. {count} attempt left.',
		other: 'That code is not right. {count} attempts left.'
	},
	'verify.codeSpent': 'This code can no longer be used here. Use the link in the email, or ask for a new one.',

	// The page an emailed link opens
	'confirm.heading': 'Confirm sign-in',
	'confirm.question': 'Sign in as {email}?',
	'confirm.submit': 'Sign in',
	'confirm.note': 'If you did not ask to sign in, close this page: nothing happens without the button.',
	'confirm.home': 'Go to the home page',

	// Sign-out
	'signOut.heading': 'Sign out',
	'signOut.question': 'Are you sure you want to sign out?',
	'signOut.submit': 'Sign out',
	'signOut.failed': 'Could not sign out. Try again.',

	// Passkeys
	'passkey.signIn': 'Sign in with a passkey',
	'passkey.continue': 'Continue with a passkey',
	'passkey.continueWith': 'Continue with {provider}',
	'passkey.add': 'Add a passkey',
	'passkey.confirm': 'Confirm with a passkey',
	'passkey.noScript': 'Passkeys need JavaScript, which is off in this browser.',
	'passkey.unsupported': 'This browser cannot use passkeys.',
	'passkey.pending': 'Waiting for your passkey…',
	'passkey.closed': 'The passkey prompt was closed or timed out.',
	'passkey.registered': 'This device already holds a passkey for your account.',
	'passkey.emailNeeded': 'Enter your email to create a passkey.',
	'passkey.failed': 'The passkey could not be used. Try again.',

	// The user's passkeys
	'passkeys.heading': 'Passkeys',
	'passkeys.name': 'Name of passkey',
	'passkeys.rename': 'Rename',
	'passkeys.remove': 'Remove',
	'passkeys.which': 'passkey {name}',
	'passkeys.synced': 'Synced',
	'passkeys.oneDevice': 'On one device',
	'passkeys.added': 'Added {date}',
	'passkeys.lastUsed': 'last used {date}',
	'passkeys.neverUsed': 'never used',
	'passkeys.empty': 'No passkeys yet.',
	'passkeys.confirmTitle': 'Confirm it is you to go on.',
	'passkeys.confirmText': 'For your security, confirm it is you, then try again.',
	// What the passkey form actions answer
	'passkeys.answer.which': 'Say which passkey, and its new name.',
	'passkeys.answer.nameMissing': 'Give the passkey a name.',
	'passkeys.answer.renamed': 'Passkey renamed.',
	'passkeys.answer.notRenamed': 'That passkey could not be renamed.',
	'passkeys.answer.removed': 'Passkey removed.',
	'passkeys.answer.notFound': 'No such passkey.',
	'passkeys.answer.last': 'This is your only way to sign in: add another before removing it.',
	'passkeys.answer.reauthenticate': 'Confirm it is you to remove a passkey.',

	// Where the user is signed in
	'sessions.heading': 'Where you’re signed in',
	'sessions.thisDevice': 'This device',
	'sessions.signedIn': 'Signed in',
	'sessions.signedInAt': 'Signed in {date}',
	'sessions.signOut': 'Sign out',
	'sessions.which': '{device}, signed in {date}',
	'sessions.empty': 'No sessions.',
	'sessions.more': 'More sessions',
	'sessions.newest': 'Newest sessions',
	'sessions.older': 'Older sessions',
	'sessions.others': { one: 'One other session', other: '{count} other sessions' },
	'sessions.signOutOthers': 'Sign out everywhere else',
	'device.unknown': 'Unknown device',
	'device.on': '{browser} on {os}',

	// Linked accounts
	'accounts.heading': 'Ways to sign in',
	'accounts.passkey': 'Passkey',
	'accounts.unlink': 'Unlink',
	'accounts.only': 'Your only way to sign in',
	'accounts.empty': 'No linked accounts yet.',
	'accounts.linkMore': 'Link another way to sign in:',
	'accounts.link': 'Link {provider}',

	// Two-step verification: the second step of a sign-in
	'twoFactor.heading': 'Two-step verification',
	'twoFactor.intro': 'Enter the 6-digit code from your authenticator app, or one of your backup codes.',
	'twoFactor.code': 'Code',
	'twoFactor.remember': { one: 'Remember this browser for {count} day', other: 'Remember this browser for {count} days' },
	'twoFactor.submit': 'Verify',
	'twoFactor.cancel': 'Sign in another way',
	// Setting it up (on the account page, or when a sign-in asks for it), and turning it off
	'twoFactor.setup.intro': 'Protect your account with a code from an authenticator app each time you sign in.',
	'twoFactor.setup.required': 'Your account needs two-step verification. Set it up to finish signing in.',
	'twoFactor.setup.scan': 'Scan this QR code with your authenticator app.',
	'twoFactor.setup.qrLabel': 'QR code for {issuer}: scan it with your authenticator app',
	'twoFactor.setup.manual': 'Or enter this key by hand:',
	'twoFactor.setup.code': 'Code from the app',
	'twoFactor.setup.submit': 'Turn on',
	'twoFactor.setup.submitSignIn': 'Verify and continue',
	'twoFactor.setup.on': 'Two-step verification is on.',
	'twoFactor.setup.disable': 'Turn off',
	'twoFactor.setup.forgetDevices': 'Forget remembered browsers',
	// Backup codes
	'backupCodes.heading': 'Backup codes',
	'backupCodes.fresh': 'Save these codes somewhere safe. Each works once, if you cannot use your app. They will not be shown again.',
	'backupCodes.left': { one: '{count} backup code left.', other: '{count} backup codes left.' },
	'backupCodes.regenerate': 'Make new backup codes',
	'backupCodes.regenerateHint': 'New codes replace all the old ones.',
	'backupCodes.continue': 'Continue',
	// What the two-factor form actions and REST actions answer
	'twoFactor.answer.wrongCode': 'That code did not work. Check it and try again.',
	'twoFactor.answer.setupChanged': 'The set-up changed meanwhile. Scan the new code and try again.',
	'twoFactor.answer.reauthenticate': 'Sign in again to confirm it is you, then try again.',
	'twoFactor.answer.enabled': 'Two-step verification is now on. Save your backup codes.',
	'twoFactor.answer.disabled': 'Two-step verification is off.',
	'twoFactor.answer.wasNotOn': 'Two-step verification was not on.',
	'twoFactor.answer.notOn': 'Two-step verification is not on.',
	'twoFactor.answer.alreadyOn': 'Two-step verification is already on.',
	'twoFactor.answer.forgotten': 'Remembered browsers will be asked for a code again.',
	'twoFactor.answer.signInFirst': 'Sign in first',
	'twoFactor.answer.unavailable': 'Two-step verification is not available on this site.',

	// Password accounts (`Password()`): the built-in pages, the sign-in page's links to them, the policy's refusals
	'password.signUp.heading': 'Create an account',
	'password.signUp.submit': 'Create the account',
	'password.forgot.heading': 'Forgot your password?',
	'password.forgot.submit': 'Send me a link',
	'password.email': 'Email',
	'password.password': 'Password',
	'password.hint': { one: '{count} to {max} character, any you like.', other: '{count} to {max} characters, any you like.' },
	'password.backToSignIn': 'Back to signing in',
	'password.reset.heading': 'Choose a new password',
	'password.reset.password': 'New password',
	'password.reset.submit': 'Set the new password',
	'password.reset.note': 'Your other sessions end once the new password is set.',
	'password.confirm.heading': 'Confirm your email address',
	'password.confirm.submit': 'Confirm',
	'password.sent.heading': 'Check your email',
	'password.sent.reset': 'If an account uses this address, a link to choose a new password has been sent to it. It works once, for a short time.',
	'password.sent.verify': 'If this address can be used, a message has been sent to it: follow its link to confirm the address, then sign in.',
	'password.sent.verifyCode': 'If this address can be used, a message has been sent to it: follow its link, or enter its code here, to confirm the address, then sign in.',
	'password.resend.submit': 'Send a new message',
	'password.home': 'Go to the home page',
	'password.invalidEmail': 'Enter one email address, such as name@example.com.',
	'password.tooShort': { one: 'This password is too short. Use at least {count} character.', other: 'This password is too short. Use at least {count} characters.' },
	'password.tooLong': { one: 'This password is too long. Use at most {count} character.', other: 'This password is too long. Use at most {count} characters.' },
	'password.common': 'This password is too common: choose another.',
	// The messages it sends (subject, link text, note)
	'password.mail.reset.subject': 'Choose a new password for {host}',
	'password.mail.reset.button': 'Choose a new password',
	'password.mail.reset.note': {
		one: 'The link works once, for {count} minute. If you did not ask for it, ignore this email: your password stays as it is.',
		other: 'The link works once, for {count} minutes. If you did not ask for it, ignore this email: your password stays as it is.'
	},
	'password.mail.verify.subject': 'Confirm your email address for {host}',
	'password.mail.verify.button': 'Confirm your email address',
	'password.mail.verify.note': {
		one: 'The link works once, for {count} hour. If you did not sign up, ignore this email.',
		other: 'The link works once, for {count} hours. If you did not sign up, ignore this email.'
	},
	'password.mail.verify.code': {
		one: 'Or enter this code on the page where you signed up (it works for {count} minute):',
		other: 'Or enter this code on the page where you signed up (it works for {count} minutes):'
	},
	'password.mail.registered.subject': 'Your account on {host}',
	'password.mail.registered.button': 'Sign in',
	'password.mail.registered.note':
		'Someone tried to sign up with this address, which already has an account: nothing changed. If it was you, sign in, or reset your password if you forgot it.',

	// The signed-in user's password account (change the password or email, delete the account)
	'account.signInFirst': 'Sign in first.',
	'account.currentPasswordNeeded': 'Enter your current password.',
	'account.wrongPassword': 'The current password is wrong.',
	'account.noPassword': 'This account has no password to change.',
	'account.sameEmail': 'This is already your email address.',
	'account.currentPassword': 'Current password',
	'account.changePassword.heading': 'Change your password',
	'account.changePassword.newPassword': 'New password',
	'account.changePassword.submit': 'Change the password',
	'account.changePassword.note': 'Your other sessions end once it is changed.',
	'account.changePassword.done': 'Your password was changed.',
	'account.changeEmail.heading': 'Change your email address',
	'account.changeEmail.email': 'New email address',
	'account.changeEmail.submit': 'Send a confirmation link',
	'account.changeEmail.requested': "Check the new address's inbox: its link makes the change.",
	'account.deleteAccount.heading': 'Delete your account',
	'account.deleteAccount.hint': 'Not needed within {duration} of signing in.',
	'account.deleteAccount.submit': 'Delete the account',
	'account.deleteAccount.note': 'Your sessions, linked accounts, passkeys and password go with it.',
	'account.confirmEmail.heading': 'Confirm your new email address',
	'account.confirmEmail.text': 'From now on you will sign in with {email}.',
	'account.mail.confirmEmail.subject': 'Confirm your new email address for {host}',
	'account.mail.confirmEmail.button': 'Confirm the new address',
	'account.mail.confirmEmail.note': {
		one: 'The link works once, for {count} hour. If you did not ask for this change, ignore this email.',
		other: 'The link works once, for {count} hours. If you did not ask for this change, ignore this email.'
	},
	'account.mail.changeRequested.subject': 'Your email address on {host} is being changed',
	'account.mail.changeRequested.note':
		'Someone signed in to your account asked to use {email} instead of this address. If it was not you, change your password now.',
	'account.mail.taken.note':
		'Someone asked to move another account to this address, which already has an account: nothing changed. If it was you, sign in with this address.',
	'account.mail.passwordChanged.subject': 'Your password on {host} was changed',
	'account.mail.passwordChanged.note': 'If you did not change it, reset your password now: someone else may know it.',

	// The sign-in email (subject, HTML and text)
	'email.subject': 'Sign in to {site}',
	'email.heading': 'Sign in to {site}',
	'email.intro': 'Use the button below to sign in.',
	'email.button': 'Sign in',
	'email.code': 'Or enter this code on the sign-in page:',
	'email.validMinutes': { one: 'It works for {count} minute, once.', other: 'It works for {count} minutes, once.' },
	'email.validHours': { one: 'It works for {count} hour, once.', other: 'It works for {count} hours, once.' },
	'email.linkHelp': 'If the button does not work, open this link:',
	'email.ignore': 'If you did not ask to sign in, you can ignore this email.'
} as const satisfies Record<string, Message>;
