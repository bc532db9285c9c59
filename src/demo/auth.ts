import { dev } from '$app/env';
import { createClient } from '@libsql/client';
import { SvelteKitAuth, type SvelteKitAuthConfig } from '#lib';
import { LibSQLAdapter } from '#lib/adapters/libsql/index.js';
import Email from '#lib/providers/email.js';
import GitHub from '#lib/providers/github.js';
import Passkey from '#lib/providers/passkey.js';
import Password from '#lib/providers/password.js';
import type { Provider } from '#lib';
import { LOCAL_IDP_CLIENT_ID, LOCAL_IDP_CLIENT_SECRET, localIdpIssuer } from './local-idp.js';
import { demoDatabase, demoStrategy } from './database.js';
import { demoLocale } from './locale.js';
import { demoSecret } from './secret.js';
import { passwordMail } from './mail.js';

// One client for the migrations, the start-up's demo user and the adapter: with an in-memory
// `DATABASE_URL` (`file::memory:`) each client would be a database of its own.
export const database = createClient(demoDatabase());
export const adapter = LibSQLAdapter(database);

/** GitHub when its credentials are set; otherwise (or with KITAUTH_DEMO_LOCAL_IDP=on) the local IdP. */
const github = !!(process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET);
export const useLocalIdp = !github || process.env.KITAUTH_DEMO_LOCAL_IDP === 'on';

const oauthProviders: Provider[] = [
	...(github ? [GitHub] : []),
	...(useLocalIdp
		? [
				{
					id: 'local',
					name: 'Local test IdP',
					type: 'oidc' as const,
					issuer: localIdpIssuer(),
					clientId: LOCAL_IDP_CLIENT_ID,
					clientSecret: LOCAL_IDP_CLIENT_SECRET
				}
			]
		: [])
];

/**
 * Email sign-in (links and one-time codes): over SMTP when `AUTH_EMAIL_SERVER` is set (the preset
 * reads it, and `AUTH_EMAIL_FROM`); otherwise, in development only, into kitauth's development
 * outbox (`/auth/dev/outbox`, and the demo's `/dev/outbox` page). A production build without an
 * SMTP server offers no email sign-in.
 */
const emailProviders: Provider[] = process.env.AUTH_EMAIL_SERVER || dev ? [(options) => Email({ ...options, code: true })] : [];

/**
 * `KITAUTH_DEMO_PAGES=builtin` leaves signing in to kitauth's built-in page (`/auth/signin`) rather
 * than the demo's own `/signin`, which stays reachable either way.
 */
const pages = process.env.KITAUTH_DEMO_PAGES === 'builtin' ? {} : { signIn: '/signin', twoFactor: '/two-factor' };

/**
 * How recent a sign-in removing a passkey, signing out everywhere or deleting the account (or,
 * with no current password typed, changing a password account's password or email) asks for
 * ("sudo mode"), in seconds: 10 minutes, or `KITAUTH_DEMO_REAUTH_SECONDS` (the end-to-end tests
 * shorten it).
 */
export const reauthenticateAge = Number(process.env.KITAUTH_DEMO_REAUTH_SECONDS) > 0 ? Number(process.env.KITAUTH_DEMO_REAUTH_SECONDS) : 600;

/** The demo's kitauth configuration: password accounts (the demo user is one), on database sessions by default. */
export const authConfig: SvelteKitAuthConfig = {
	secret: demoSecret(dev),
	adapter,
	session: { strategy: demoStrategy() },
	providers: [
		// Email-and-password accounts kept in the demo's database: sign-up (/signup), reset by email
		// (/forgot-password, /reset-password), the address confirmed from a sign-up's message; on
		// /account, a new password or address and deleting the account.
		Password({ ...passwordMail(dev), recentSignIn: reauthenticateAge }),
		...emailProviders,
		// Passkeys with no relying-party settings: it is the site the browser is on (on this
		// machine, http://localhost:<port>; browsers refuse passkeys on a bare IP such as 127.0.0.1).
		Passkey({
			// Not "Email": the password form above has that label (and the tests find it by it).
			formFields: { email: { label: 'E-mail for a new passkey account (optional)', type: 'email', autocomplete: 'username webauthn' } }
		}),
		...oauthProviders
	],
	experimental: { enableWebAuthn: true },
	// Two-step verification for users who turn it on (on /account): after any sign-in but a passkey
	// that verified its user, a TOTP or backup code.
	twoFactor: { issuer: 'kitauth demo' },
	pages,
	// The built-in pages (sign-out, error, …) in the demo's colours, light or dark as the system is.
	theme: { colorScheme: 'auto', brandColor: '#0b6e4f', buttonText: '#ffffff', logo: '/favicon.svg', name: 'kitauth demo' },
	// The language the visitor picked with the switcher (a cookie), else Accept-Language.
	i18n: { locale: demoLocale },
	// A session update (`update()` of kitauth/client on /client, `updateSession` of kitauth/remote on
	// /remote) may set a greeting: JWT sessions keep it in the token, database sessions show it in
	// the update's answer only (the demo stores nothing more about its users).
	callbacks: {
		jwt: ({ token, trigger, session }) => (trigger === 'update' && greetingOf(session) ? { ...token, greeting: greetingOf(session) } : token),
		session: ({ session, token, trigger, newSession }) => {
			const greeting = trigger === 'update' ? greetingOf(newSession) : greetingOf(token);
			return greeting ? { ...session, greeting } : session;
		}
	}
};

/** A greeting the browser sent: text, short. */
function greetingOf(data: unknown): string | undefined {
	const greeting = (data as { greeting?: unknown } | null | undefined)?.greeting;
	return typeof greeting === 'string' && greeting.trim() ? greeting.trim().slice(0, 40) : undefined;
}

export const { handle, signIn, signOut, sessions, accounts, passkeys, twoFactor, passwords, locale } = SvelteKitAuth(authConfig);
