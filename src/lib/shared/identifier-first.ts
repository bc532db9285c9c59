import type { ClientProvider } from './provider.js';

/**
 * Identifier-first sign-in: when several configured methods start from the same email address
 * (an email link/code provider, an email + password form, passkeys), the sign-in form asks for
 * the address once (step 1), then offers those methods for it (step 2). Step 2 depends on the
 * configuration only, never on the address: it is the same for a registered and an unknown one, so
 * the form reveals nothing about who has an account. The components, the built-in page and the
 * form actions all decide here.
 */

/** The methods step 2 offers, one of each kind at most. */
export interface EmailMethods {
	password?: ClientProvider;
	email?: ClientProvider;
	passkey?: ClientProvider;
}

/** What a step-1 submission answers (the `signIn` action's and the built-in page's): show step 2. */
export interface MethodStep {
	step: 'method';
	email: string;
}

/** A credentials provider whose form is exactly an email and a password (`Password()`, or an app's own). */
export function isEmailPassword(provider: ClientProvider): boolean {
	if (provider.type !== 'credentials' || !provider.credentials) return false;
	const names = Object.keys(provider.credentials).sort();
	return names.length === 2 && names[0] === 'email' && names[1] === 'password' && provider.credentials.password?.type === 'password';
}

/**
 * The methods sharing an email, when there are at least two kinds of them and at most one of each
 * (two password forms or two email providers would need a choice step 2 cannot make); otherwise
 * `null`, and the sign-in form shows every provider's form at once, as it always has.
 */
export function emailMethods(providers: readonly ClientProvider[]): EmailMethods | null {
	const password = providers.filter(isEmailPassword);
	const email = providers.filter((p) => p.type === 'email');
	const passkey = providers.filter((p) => p.type === 'webauthn');
	const kinds = [password, email, passkey];
	if (kinds.some((kind) => kind.length > 1) || kinds.filter((kind) => kind.length).length < 2) return null;
	return { password: password[0], email: email[0], passkey: passkey[0] };
}

/** Is `provider` one that step 2 offers (its failures show on step 2, with the address)? */
export function isStepTwo(methods: EmailMethods, providerId: string | undefined): boolean {
	return !!providerId && [methods.password, methods.email, methods.passkey].some((p) => p?.id === providerId);
}

/** RFC 5321 caps a path at 256 octets; allow a little more before refusing outright. */
const MAX_EMAIL = 320;
/**
 * One `@`, something on both sides, and nothing of the address-list syntax (`<>()[],;:"\`), white
 * space or control characters: roughly what a browser's `type=email` lets through. Each method of
 * step 2 still checks the address its own way (the email provider's normalizer, `Password()`'s).
 */
const EMAIL = /^[^\s@\p{Cc}<>()[\],;:"\\]+@[^\s@\p{Cc}<>()[\],;:"\\]+$/u;

/**
 * A step-1 submission's address (the form's `email` values): trimmed, or `null` when it is missing,
 * repeated, a file, too long or not an address. Never looked up: step 2 is the same for everyone.
 */
export function parseIdentifier(values: readonly unknown[]): string | null {
	if (values.length !== 1 || typeof values[0] !== 'string') return null;
	const email = values[0].trim();
	return email.length <= MAX_EMAIL && EMAIL.test(email) ? email : null;
}
