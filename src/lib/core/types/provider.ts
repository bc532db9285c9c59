import type { customFetch } from '../markers.js';
import type { LocaleMessages } from '../../i18n/index.js';
import type { CredentialInput, ProviderStyle } from '../../shared/provider.js';
import type { Theme } from '../../shared/theme.js';
import type { Account, Profile, ProviderType, TokenSet, User } from './models.js';
import type { PasswordOptions } from './password.js';

export type { CredentialInput, ProviderStyle };
export type { AccountEmailRequest, PasswordOptions, PasswordResetRequest, SignUpEmailRequest } from './password.js';

type Awaitable<T> = T | PromiseLike<T>;

/** Fields every provider has. */
export interface CommonProviderOptions {
	/** Unique id; it names the provider in URLs (`/auth/signin/<id>`). */
	id: string;
	/** Display name on the sign-in page. */
	name: string;
	type: ProviderType;
}

export interface CredentialsConfig<
	Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>
> extends CommonProviderOptions {
	type: 'credentials';
	credentials: Fields;
	/**
	 * Checks the submitted fields. Return the user on success, `null` to refuse (the user sees
	 * `CredentialsSignin`), or throw a `CredentialsSignin` with your own `code`.
	 */
	authorize: (
		credentials: Partial<Record<keyof Fields, unknown>>,
		request: Request
	) => Awaitable<User | null>;
	/**
	 * kitauth: set by `Password()` (kitauth/providers/password): kitauth checks the email and
	 * password against the users and password hashes in the adapter (and offers sign-up), and
	 * `authorize` is not called.
	 */
	password?: PasswordOptions;
}


/** An endpoint given as a URL, or as a URL with extra query parameters. */
export type EndpointSetting = string | { url?: string; params?: Record<string, unknown> };

export type OAuthChecks = 'pkce' | 'state' | 'nonce' | 'none';

export type ClientAuthMethod =
	| 'client_secret_basic'
	| 'client_secret_post'
	| 'private_key_jwt'
	| 'none';

/** Tokens from the token endpoint, as given to `profile()` and `account()`. */
export type TokenEndpointResponse = TokenSet;

/** An OAuth 2 or OpenID Connect provider. */
export interface OAuthConfig<P extends Profile = Profile> extends CommonProviderOptions {
	type: 'oauth' | 'oidc';
	/** Issuer URL: endpoints are discovered from `<issuer>/.well-known/openid-configuration`. */
	issuer?: string;
	/** Discovery document URL, for a provider without an `issuer` (with one, discovery starts there). */
	wellKnown?: string;
	/**
	 * For a multi-tenant server whose discovery names an issuer template instead of an issuer
	 * (Entra ID's `common`: `https://login.microsoftonline.com/{tenantid}/v2.0`): the template's
	 * `placeholder`, and the ID-token `claim` naming the tenant (a GUID). Each ID token must then
	 * carry its own tenant's issuer, and is verified with the same JWKS.
	 */
	issuerTemplate?: { placeholder: string; claim: string };
	authorization?: EndpointSetting;
	token?: EndpointSetting & { clientPrivateKey?: CryptoKey | JsonWebKey };
	userinfo?: EndpointSetting & {
		/**
		 * Fetch the profile yourself (providers with non-standard user info). Use the `fetch` given
		 * here: it is the provider's own (`fetch` or `[customFetch]`) with kitauth's timeout.
		 */
		request?(context: { tokens: TokenSet; provider: OAuthConfig<P>; fetch: typeof globalThis.fetch }): Awaitable<P>;
	};
	clientId?: string;
	clientSecret?: string;
	client?: {
		token_endpoint_auth_method?: ClientAuthMethod;
		id_token_signed_response_alg?: string;
		[field: string]: unknown;
	};
	/**
	 * Default `['pkce']`. `state` is always used and cannot be dropped; OIDC providers always also
	 * use `nonce`. A confidential client may drop PKCE, a public one never. `'nonce'` on a plain
	 * OAuth 2 provider sends a nonce, and an ID token the provider returns must then carry it.
	 */
	checks?: OAuthChecks[];
	/** OIDC: read the profile from the ID token (default) or, with `false`, from userinfo. */
	idToken?: boolean;
	// Hooks are declared as methods so a preset typed for its own profile (`OAuthConfig<GitHubProfile>`)
	// still fits in `providers: Provider[]`.
	/** Maps the provider's profile to a user; the returned `id` becomes the account's id. */
	profile?(profile: P, tokens: TokenSet): Awaitable<User & { id: string }>;
	/** Picks the token fields stored on the account. */
	account?(tokens: TokenSet): Partial<Account> | undefined;
	/** Allow signing in to an existing user with the same email. Only for providers that verify emails. */
	allowDangerousEmailAccountLinking?: boolean;
	redirectProxyUrl?: string;
	style?: ProviderStyle;
	/** A fetch for every request to this provider (proxies, logging, tests). */
	fetch?: typeof globalThis.fetch;
	/** The same as `fetch`, spelled as in Auth.js (`[customFetch]: myFetch`); it wins over `fetch`. */
	[customFetch]?: typeof globalThis.fetch;
	/** kitauth: milliseconds a request to this provider may take before it fails (default 10000). */
	timeout?: number;
	/** The options the provider function was called with; they win over the preset's defaults. */
	options?: Partial<OAuthConfig<P>>;
}

export type OIDCConfig<P extends Profile = Profile> = OAuthConfig<P> & { type: 'oidc' };

/** What an app passes to a preset (`GitHub({ clientId, clientSecret })`): every field may be overridden. */
export type OAuthUserConfig<P extends Profile = Profile> = Partial<Omit<OAuthConfig<P>, 'options' | 'type'>>;

/**
 * Where an email provider sends through SMTP (`nodemailer`): a connection URL
 * (`smtp://user:pass@smtp.example.com:587`, `smtps://…`) or nodemailer's transport options.
 */
export type EmailServer =
	| string
	| {
			host?: string;
			port?: number;
			secure?: boolean;
			auth?: { user?: string; pass?: string };
			/** Milliseconds (nodemailer's own); kitauth sets short defaults so nothing hangs. */
			connectionTimeout?: number;
			greetingTimeout?: number;
			socketTimeout?: number;
			[option: string]: unknown;
	  };

/** What `sendVerificationRequest` is called with (Auth.js's parameters, plus kitauth's `code`). */
export interface EmailVerificationRequest {
	/** The normalized address the message goes to (one plain address, never a list). */
	identifier: string;
	/** The sign-in link: the one call to action of the message. */
	url: string;
	expires: Date;
	provider: EmailConfig;
	/** The raw token (already in `url`); never log it. */
	token: string;
	theme: Theme;
	request: Request;
	/** kitauth: with `code: true`, the one-time code for the verify-request page (e.g. `48213907`). */
	code?: string;
	/**
	 * kitauth: the language to write in, the request's that asked for the link (`i18n.locale`, else
	 * `Accept-Language`): pass it, and `messages`, to `verificationMessage`.
	 */
	locale: string;
	/** kitauth: the app's messages (`i18n.messages`), for `verificationMessage`. */
	messages?: LocaleMessages;
}

/**
 * An email provider (magic links): `kitauth/providers/nodemailer` (SMTP) or
 * `kitauth/providers/email` with your own `sendVerificationRequest` (any HTTP mail API).
 */
export interface EmailConfig extends CommonProviderOptions {
	type: 'email';
	/** SMTP server (`AUTH_<ID>_SERVER`): used when there is no `sendVerificationRequest`. */
	server?: EmailServer;
	/** Sender address (`AUTH_<ID>_FROM`). */
	from?: string;
	/** Seconds a link stays valid. Default 86400 (24 hours). */
	maxAge?: number;
	/** Sends the message. Throw to fail the sign-in (`EmailSignin`); the token is then deleted. */
	sendVerificationRequest?: (params: EmailVerificationRequest) => Awaitable<void>;
	/**
	 * Turns what the user typed into the address to use, or throws to refuse it. Default: Unicode
	 * NFKC, trim, lower-case, exactly one plain address (see the email guide, docs/content/email.md). Whatever it returns must
	 * still be one plain address: lists, quotes and line breaks are refused after it too.
	 */
	normalizeIdentifier?: (identifier: string) => string;
	/** Makes the token of a link. Default: 32 random bytes as hex. */
	generateVerificationToken?: () => Awaitable<string>;
	/** Hashes this provider's tokens instead of the configuration's `secret` (as in Auth.js). */
	secret?: string;
	/** For HTTP mail APIs (`AUTH_<ID>_KEY`), read by your `sendVerificationRequest`. */
	apiKey?: string;
	/**
	 * kitauth: also offer a one-time code (8 digits, derived from the link's token) that the user
	 * may type on the verify-request page of the browser that asked, instead of following the link.
	 * It lives 15 minutes (at most `maxAge`) and allows 5 attempts. Default false.
	 */
	code?: boolean;
	/** kitauth: milliseconds sending may take before the sign-in fails (default 15000). */
	timeout?: number;
	/** The options the provider function was called with; they win over the preset's defaults. */
	options?: Partial<EmailConfig>;
}

/** What an app passes to an email preset: every field may be overridden. */
export type EmailUserConfig = Partial<Omit<EmailConfig, 'options' | 'type'>>;


/** A relying party setting: one value, or several (the first is used where one is needed). */
export type RelyingPartyValue = string | string[];

/**
 * A WebAuthn (passkey) provider. Needs `experimental.enableWebAuthn` and an adapter that stores
 * authenticators. Field names follow Auth.js's `WebAuthn()` (including its `relayingParty`
 * spelling), so an Auth.js config carries over.
 */
export interface WebAuthnConfig extends CommonProviderOptions {
	type: 'webauthn';
	/**
	 * Who the passkeys belong to: `id` (a domain, e.g. `example.com`), `name` (shown by the
	 * authenticator) and `origin` (where ceremonies may run, e.g. `https://example.com`). Default:
	 * the site's hostname, host and origin (`AUTH_URL`'s, or the request's). Set them in production.
	 */
	relayingParty?: { id?: RelyingPartyValue; name?: RelyingPartyValue; origin?: RelyingPartyValue };
	/**
	 * kitauth: other origins that may use this relying party's passkeys (WebAuthn Related Origin
	 * Requests). They are accepted as ceremony origins and served at `/.well-known/webauthn`.
	 */
	relatedOrigins?: string[];
	/** Registration options (`generateRegistrationOptions`); kitauth sets rp, user, challenge and timeout. */
	registrationOptions?: {
		authenticatorSelection?: {
			authenticatorAttachment?: 'platform' | 'cross-platform';
			residentKey?: 'required' | 'preferred' | 'discouraged';
			requireResidentKey?: boolean;
			userVerification?: 'required' | 'preferred' | 'discouraged';
		};
		supportedAlgorithmIDs?: number[];
		preferredAuthenticatorType?: 'securityKey' | 'localDevice' | 'remoteDevice';
	};
	/** Authentication options (`generateAuthenticationOptions`). */
	authenticationOptions?: { userVerification?: 'required' | 'preferred' | 'discouraged' };
	/** Registration checks. User verification is required unless this says `false`. */
	verifyRegistrationOptions?: { requireUserVerification?: boolean; supportedAlgorithmIDs?: number[] };
	/** Authentication checks. User verification is required unless this says `false`. */
	verifyAuthenticationOptions?: { requireUserVerification?: boolean };
	/** Ceremony timeout in milliseconds, also the challenge's lifetime (default 300000, 5 minutes). */
	timeout?: number;
	/** Fields of the sign-in form (default: an email field with `autocomplete="username webauthn"`). */
	formFields?: Record<string, CredentialInput>;
	/** Offer passkeys in the browser's autofill (conditional mediation) on sign-in forms. Default `true`. */
	enableConditionalUI?: boolean;
	/**
	 * kitauth: a name for a new passkey from its authenticator's AAGUID (e.g. from an AAGUID list),
	 * or nothing to fall back to the browser and system that registered it ("Chrome on Linux").
	 */
	authenticatorName?: (aaguid: string) => string | null | undefined;
}

export type ProviderConfig = CredentialsConfig | OAuthConfig | EmailConfig | WebAuthnConfig;

/**
 * A provider as it may appear in `providers`: a config object, or a preset function that is
 * called with the options inferred from the environment (`AUTH_<ID>_ID`, …).
 */
export type Provider = ProviderConfig | ((options?: Record<string, unknown>) => ProviderConfig);

/** The client-safe view of a provider (`GET /auth/providers`). */
export interface PublicProvider {
	id: string;
	name: string;
	type: ProviderType;
	signinUrl: string;
	callbackUrl: string;
}
