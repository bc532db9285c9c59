import { describe, expect, it } from 'vitest';
import * as errors from '../../src/lib/core/errors.js';
import {
	AccessDenied,
	AuthError,
	CredentialsSignin,
	InvalidRequest,
	MissingCSRF,
	MissingSecret,
	MissingSecretError,
	OAuthAccountNotLinked,
	SignInError,
	UntrustedHost
} from '../../src/lib/core/errors.js';
import { isUrlSafeError, refusalOf, safeCode, urlErrorFor } from '../../src/lib/core/error-answers.js';

type ErrorClass = new (message: string) => AuthError;

/** Every exported AuthError subclass, instantiated (but SignInError: a base, never thrown itself). */
function allErrors(): AuthError[] {
	const out: AuthError[] = [];
	for (const value of Object.values(errors)) {
		if (typeof value === 'function' && value.prototype instanceof AuthError && value !== SignInError) {
			out.push(new (value as ErrorClass)('message'));
		}
	}
	return out;
}

/** What may reach a URL (the reference's client-safe list, plus two sign-in page values). */
const ALLOWED: Record<string, string> = {
	AccessDenied: 'AccessDenied',
	Verification: 'Verification',
	CredentialsSignin: 'CredentialsSignin',
	OAuthAccountNotLinked: 'OAuthAccountNotLinked',
	OAuthCallbackError: 'OAuthCallbackError',
	// A missing/expired check cookie reads as a failed sign-in to retry, not a server error.
	InvalidCheck: 'OAuthCallbackError',
	OAuthSignInError: 'OAuthSignin',
	EmailSignInError: 'EmailSignin',
	MissingCSRF: 'MissingCSRF',
	AccountNotLinked: 'AccountNotLinked',
	WebAuthnVerificationError: 'WebAuthnVerificationError',
	RateLimited: 'RateLimited',
	// A second factor whose pending sign-in is gone: sign in again.
	TwoFactorExpired: 'TwoFactorExpired',
	// The limiter's store is down and it fails closed: busy, as a store that is busy (503).
	RateLimitUnavailable: 'Unavailable'
};

describe('urlErrorFor', () => {
	it('finds every error class (sanity)', () => {
		const types = new Set(allErrors().map((error) => error.type));
		expect(types.size).toBeGreaterThanOrEqual(30);
		for (const type of Object.keys(ALLOWED)) expect(types.has(type as errors.ErrorType), type).toBe(true);
	});

	it('maps each allow-listed type to its URL value', () => {
		for (const error of allErrors()) {
			if (error.type in ALLOWED) expect(urlErrorFor(error), error.type).toBe(ALLOWED[error.type]);
		}
	});

	it('maps every other error type to Configuration', () => {
		const others = allErrors().filter((error) => !(error.type in ALLOWED));
		expect(others.length).toBeGreaterThan(15);
		for (const error of others) expect(urlErrorFor(error), error.type).toBe('Configuration');
	});

	it.each([
		['UntrustedHost', new UntrustedHost('host evil.example')],
		['MissingSecret', new MissingSecret('no secret')],
		['InvalidRequest', new InvalidRequest('bad', 413)]
	])('%s leaks nothing into the URL', (_name, error) => {
		expect(urlErrorFor(error)).toBe('Configuration');
	});

	it('maps plain Errors, non-errors and look-alikes to Configuration', () => {
		const lookAlike = Object.assign(new Error('x'), { type: 'AccessDenied' });
		for (const value of [new Error('AccessDenied'), new TypeError('x'), lookAlike, 'AccessDenied', null, undefined, { type: 'AccessDenied' }]) {
			expect(urlErrorFor(value)).toBe('Configuration');
		}
	});

	it('follows subclasses of allow-listed errors', () => {
		class WrongPassword extends CredentialsSignin {
			override code = 'wrong_password';
		}
		expect(urlErrorFor(new WrongPassword())).toBe('CredentialsSignin');
	});
});

describe('isUrlSafeError', () => {
	it.each([
		'Configuration',
		'AccessDenied',
		'Verification',
		'CredentialsSignin',
		'OAuthAccountNotLinked',
		'MissingCSRF',
		'SessionRequired',
		'OAuthSignin',
		'EmailSignin',
		'Signin',
		'Callback'
	])('accepts %j', (value) => {
		expect(isUrlSafeError(value)).toBe(true);
	});

	it.each([
		'UntrustedHost',
		'MissingSecret',
		'JWTSessionError',
		'AdapterError',
		'InvalidRequest',
		'<script>alert(1)</script>',
		'',
		'configuration',
		'toString',
		'__proto__',
		'constructor',
		'AccessDenied\n'
	])('refuses %j', (value) => {
		expect(isUrlSafeError(value)).toBe(false);
	});

	it('accepts every value urlErrorFor can produce', () => {
		for (const error of allErrors()) expect(isUrlSafeError(urlErrorFor(error)), error.type).toBe(true);
		expect(isUrlSafeError(urlErrorFor(new Error('x')))).toBe(true);
	});
});

describe('safeCode', () => {
	it.each(['invalid_password', 'code-1.2', 'A', 'x'.repeat(64)])('keeps %j', (code) => {
		expect(safeCode(code)).toBe(code);
	});

	it.each([
		'',
		'x'.repeat(65),
		'wrong password',
		'<b>x</b>',
		'a&b=c',
		'abc\n',
		'é',
		'a/b'
	])('replaces %j by credentials', (code) => {
		expect(safeCode(code)).toBe('credentials');
	});

	it('replaces non-strings by credentials', () => {
		for (const code of [undefined, null, 42, ['code'], { code: 'x' }]) expect(safeCode(code)).toBe('credentials');
	});
});

describe('refusalOf: a refused sign-in as a form shows it', () => {
	it('a refusal: 400, its URL-safe name, the sign-in message; a credentials code made safe', () => {
		const wrong = Object.assign(new CredentialsSignin('no'), { code: '<b>x</b>' });
		expect(refusalOf(wrong)).toEqual({ status: 400, error: 'CredentialsSignin', code: 'credentials', message: 'Sign in failed. Check the details you provided are correct.' });
		expect(refusalOf(new AccessDenied('no'))).toMatchObject({ status: 400, error: 'AccessDenied', code: undefined });
		// An internal error keeps its details out of the form.
		expect(refusalOf(new errors.MissingAdapter('adapter details'))).toMatchObject({ status: 400, error: 'Configuration', message: 'Unable to sign in.' });
	});

	it('too many attempts: 429 and when to retry', () => {
		expect(refusalOf(new errors.RateLimited(42))).toMatchObject({ status: 429, error: 'RateLimited', retryAfter: 42 });
	});

	it('a store busy or out of reach: 503, Unavailable, and when to retry', () => {
		const busy = new errors.AdapterError('locked', { cause: Object.assign(new Error('SQLITE_BUSY'), { retryable: true, retryAfter: 2.5 }) });
		expect(refusalOf(busy)).toMatchObject({ status: 503, error: 'Unavailable', retryAfter: 3 });
		expect(refusalOf(new errors.RateLimitUnavailable(7))).toMatchObject({ status: 503, error: 'Unavailable', retryAfter: 7 });
	});

	it('no AuthError: no refusal (a fault, thrown on)', () => {
		expect(refusalOf(new Error('bug'))).toBeUndefined();
		expect(refusalOf('text')).toBeUndefined();
	});
});

describe('error classes', () => {
	it('CredentialsSignin: default code, type, kind, name, an Error', () => {
		const error = new CredentialsSignin();
		expect(error.code).toBe('credentials');
		expect(error.type).toBe('CredentialsSignin');
		expect(error.kind).toBe('signIn');
		expect(error.name).toBe('CredentialsSignin');
		expect(error).toBeInstanceOf(AuthError);
		expect(error).toBeInstanceOf(Error);
	});

	it('a custom code on a CredentialsSignin subclass is kept', () => {
		class Locked extends CredentialsSignin {
			override code = 'locked';
		}
		expect(new Locked().code).toBe('locked');
	});

	it.each<[string, AuthError, string, string]>([
		['MissingCSRF', new MissingCSRF(), 'MissingCSRF', 'signIn'],
		['OAuthAccountNotLinked', new OAuthAccountNotLinked(), 'OAuthAccountNotLinked', 'signIn'],
		['AccessDenied', new AccessDenied(), 'AccessDenied', 'error'],
		['UntrustedHost', new UntrustedHost(), 'UntrustedHost', 'error'],
		['MissingSecret', new MissingSecret(), 'MissingSecret', 'error']
	])('%s has type and kind', (_name, error, type, kind) => {
		expect(error.type).toBe(type);
		expect(error.kind).toBe(kind);
		expect(error.name).toBe(type);
	});

	it('every class names itself after its type', () => {
		for (const error of allErrors()) expect(error.name, error.type).toBe(error.type);
	});

	it('each class states its type and kind statically, and every instance carries them', () => {
		let classes = 0;
		for (const value of Object.values(errors)) {
			if (typeof value !== 'function' || !(value.prototype instanceof AuthError)) continue;
			const Class = value as typeof AuthError;
			const error = new (Class as unknown as ErrorClass)('message');
			expect(error.type, Class.name).toBe(Class.type);
			expect(error.kind, Class.name).toBe(Class.kind);
			// Sign-in failures, and only they, are SignInErrors (the sign-in page shows them).
			expect(error instanceof SignInError, Class.name).toBe(Class.kind === 'signIn');
			classes++;
		}
		expect(classes).toBeGreaterThanOrEqual(30);
	});

	it('has the static type Auth.js gives its class of the same name', async () => {
		const authjs: Record<string, unknown> = await import('@auth/core/errors');
		const ours = errors as Record<string, unknown>;
		let compared = 0;
		for (const [name, theirs] of Object.entries(authjs)) {
			const type = typeof theirs === 'function' ? (theirs as { type?: unknown }).type : undefined;
			if (typeof type !== 'string') continue;
			expect((ours[name] as { type?: unknown } | undefined)?.type, name).toBe(type);
			compared++;
		}
		expect(compared).toBeGreaterThanOrEqual(30);
	});

	it('MissingSecretError is MissingSecret (the spec name)', () => {
		expect(MissingSecretError).toBe(MissingSecret);
		expect(new MissingSecretError('x').type).toBe('MissingSecret');
	});

	it('InvalidRequest carries a status (400 by default)', () => {
		expect(new InvalidRequest('bad').status).toBe(400);
		expect(new InvalidRequest('big', 413).status).toBe(413);
	});

	it('keeps the cause when constructed from an Error', () => {
		const root = new Error('root');
		const wrapped = new AccessDenied(root);
		expect(wrapped.cause?.err).toBe(root);
	});

	it('keeps the cause when given a message and { cause }', () => {
		const root = new Error('root');
		const withMessage = new AccessDenied('denied', { cause: root });
		expect(withMessage.message).toBe('denied');
		expect(withMessage.cause?.err).toBe(root);
	});

	it('keeps a non-Error cause object given with a message', () => {
		const withData = new AccessDenied('denied', { cause: { provider: 'github' } });
		expect(withData.cause).toEqual({ provider: 'github' });
	});
});
