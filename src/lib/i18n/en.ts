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
