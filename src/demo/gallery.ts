import { listProviders, type ClientProvider, type CredentialInput, type LinkedAccount, type PasskeyInfo, type SessionPage } from '#lib';
import Credentials from '#lib/providers/credentials.js';
import GitHub from '#lib/providers/github.js';
import GitLab from '#lib/providers/gitlab.js';
import Google from '#lib/providers/google.js';

/**
 * Fixed data for the component gallery (`/components`): every component in each of its states,
 * the same on every machine and every day (the visual tests compare screenshots of it).
 */

const presets = listProviders({
	providers: [
		GitHub({ clientId: 'gallery', clientSecret: 'gallery' }),
		Google({ clientId: 'gallery', clientSecret: 'gallery' }),
		GitLab({ clientId: 'gallery', clientSecret: 'gallery' }),
		{ id: 'local', name: 'Local test IdP', type: 'oidc', issuer: 'http://127.0.0.1:1', clientId: 'gallery', clientSecret: 'gallery' },
		Credentials({
			credentials: {
				email: { label: 'Email', type: 'email', autocomplete: 'username', required: true },
				password: { label: 'Password', type: 'password', autocomplete: 'current-password', required: true }
			},
			authorize: () => null
		})
	]
});

/** An email provider as `listProviders` shows one (the email flow is configured elsewhere). */
const email: ClientProvider = { id: 'email', name: 'Email', type: 'email' };

export const galleryProviders: ClientProvider[] = [...presets.slice(0, 4), email, presets[4]!];
export const galleryOAuth: ClientProvider[] = presets.slice(0, 4);
export const galleryCredentials: ClientProvider[] = [presets[4]!];
/** Identifier-first: an OAuth provider, then an email link, a password and passkeys sharing the address. */
const passkeyMethod: ClientProvider = { id: 'passkey', name: 'Passkey', type: 'webauthn', webauthn: { formFields: {}, enableConditionalUI: false } };
export const galleryIdentifierFirst: ClientProvider[] = [presets[0]!, email, presets[4]!, passkeyMethod];

const at = (minutesAgo: number) => new Date(Date.UTC(2026, 2, 14, 9, 30) - minutesAgo * 60_000).toISOString();
const expires = '2026-04-13T09:30:00.000Z';
const info = (id: string, current: boolean, minutesAgo: number, userAgent: string | null) => ({
	id,
	current,
	createdAt: at(minutesAgo),
	expires,
	userAgent
});

export const gallerySessions: SessionPage = {
	current: info('s-current', true, 5, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36'),
	others: [
		info('s-phone', false, 60 * 3, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'),
		info('s-work', false, 60 * 26, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0'),
		info('s-android', false, 60 * 24 * 6, 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36'),
		info('s-script', false, 60 * 24 * 9, 'curl/8.5.0 <b>not markup</b>')
	],
	totalOthers: 37,
	nextCursor: `${Date.parse(at(60 * 24 * 9))}.s-script`
};

export const galleryAccounts: LinkedAccount[] = [
	{ provider: 'github', type: 'oauth', providerAccountId: '583231', unlinkable: true },
	{ provider: 'local', type: 'oidc', providerAccountId: 'demo', unlinkable: true }
];

export const galleryLastAccount: LinkedAccount[] = [{ provider: 'github', type: 'oauth', providerAccountId: '583231', unlinkable: false }];

/** A passkey provider's optional email field (as the demo's `Passkey` provider offers it). */
export const galleryPasskeyFields: Record<string, CredentialInput> = {
	email: { label: 'E-mail for a new passkey account (optional)', type: 'email', autocomplete: 'username webauthn' }
};

const passkey = (id: string, name: string, deviceType: PasskeyInfo['deviceType'], addedMinutesAgo: number, usedMinutesAgo: number | null): PasskeyInfo => ({
	id,
	provider: 'passkey',
	name,
	createdAt: at(addedMinutesAgo),
	lastUsedAt: usedMinutesAgo === null ? null : at(usedMinutesAgo),
	deviceType,
	backedUp: deviceType === 'multiDevice',
	transports: deviceType === 'multiDevice' ? ['internal', 'hybrid'] : ['usb']
});

export const galleryPasskeys: PasskeyInfo[] = [
	passkey('cGFzc2tleS1sYXB0b3A', 'Chrome on macOS', 'multiDevice', 60 * 24 * 40, 60 * 2),
	passkey('cGFzc2tleS15dWJpa2V5', 'YubiKey 5C', 'singleDevice', 60 * 24 * 12, null)
];

/**
 * Two-step verification with fixed data: the key is "Hello!\xde\xad\xbe\xef" twice (the example
 * key of Google Authenticator's URI format, 20 bytes like kitauth's), its URI as totpUri() writes it.
 */
export const galleryTotp = {
	secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
	uri: 'otpauth://totp/kitauth%20demo:demo%40example.com?issuer=kitauth+demo&algorithm=SHA1&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&period=30&digits=6',
	issuer: 'kitauth demo',
	accountName: 'demo@example.com'
};
