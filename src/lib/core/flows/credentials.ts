import { randomUUID } from '../crypto/index.js';
import { CallbackRouteError, CredentialsSignin, MissingAdapterMethods, MissingAuthorize } from '../errors.js';
import { limitAttempt } from '../limit/attempt.js';
import type { Identity } from '../login.js';
import type { RequestInternal } from '../types/internal.js';
import type { CredentialsConfig } from '../types/provider.js';
import { byApp } from '../users.js';
import type { Flow } from './flow.js';
import { passwordIdentity } from './password/signin.js';

/** What a credentials sign-in on database sessions needs of the adapter (the user it mirrors). */
const DATABASE_METHODS = ['getUser', 'getUserByEmail', 'createUser'] as const;
/** What a `Password()` provider needs of the adapter: its users, with their password hashes. */
const PASSWORD_METHODS = ['createPasswordUser', 'getPasswordUser', 'updatePasswordHash', 'getUser', 'getUserByEmail'] as const;
/** …and for the links it emails (password reset, address confirmation). */
const LINK_METHODS = ['createVerificationToken', 'useVerificationToken', 'setPasswordHash', 'updateUser'] as const;

/**
 * Credentials: the app's `authorize()` decides (or, for `Password()`, kitauth's own store, see
 * `password/`), on the callback alone (there is no start). The callback is a POST whose body
 * carries the CSRF token beside the fields.
 */
export const credentialsFlow: Flow<CredentialsConfig> = {
	assert(provider, { config, session }) {
		if (provider.password) {
			const missing: string[] = PASSWORD_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
			const links = provider.password.sendPasswordReset || provider.password.sendSignUpEmail;
			if (links) missing.push(...LINK_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function'));
			if (missing.length) throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for the password provider "${provider.id}".`);
			return;
		}
		if (typeof provider.authorize !== 'function') {
			throw new MissingAuthorize(`Credentials provider "${provider.id}" has no authorize() function.`);
		}
		if (session.strategy !== 'database') return;
		const missing = DATABASE_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
		if (missing.length) {
			throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for credentials sign-in with database sessions.`);
		}
	},
	users: byApp,
	// A `Password()` user whose password is stored can sign in with it; what an app's own
	// `authorize()` accepts, kitauth cannot see (the app says so with `otherSignIn`).
	async keepsSignIn(ctx, provider, user) {
		if (!provider.password || !user.email) return false;
		const found = await ctx.options.adapter?.getPasswordUser?.(user.email);
		return found?.user.id === user.id;
	},
	callback: {
		methods: ['POST'],
		protection: 'token',
		async run(req, ctx, provider) {
			const succeeded = await limitAttempt(ctx, req, 'credentials', submittedAccount(req, provider));
			const identity = provider.password ? await passwordIdentity(req, ctx, provider, provider.password) : await credentialsIdentity(req, provider);
			await succeeded();
			return { identity };
		}
	},
	publicView: (provider) => ({
		credentials: provider.credentials,
		keptFields: Object.keys(provider.credentials).filter((name) => provider.credentials[name]!.type !== 'password')
	})
};

/**
 * Which account an attempt is for, for the limiter's per-account budget: the first field the form
 * declares that is not a password (`email`, `username`, …), as submitted.
 */
function submittedAccount(req: RequestInternal, provider: CredentialsConfig): string | undefined {
	for (const [name, input] of Object.entries(provider.credentials)) {
		if (input.type === 'password') continue;
		const value = req.body[name];
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

/**
 * `null` from `authorize()` → `CredentialsSignin` (code `credentials`); a thrown
 * `CredentialsSignin` keeps its own code; any other throw is a server fault
 * (`CallbackRouteError`, shown as `Configuration`), logged with its cause.
 */
async function credentialsIdentity(req: RequestInternal, provider: CredentialsConfig): Promise<Identity> {
	const { csrfToken: _csrf, ...credentials } = req.body;
	const request = new Request(req.url, {
		method: 'POST',
		headers: withJson(req.headers),
		body: JSON.stringify(credentials)
	});
	let user: Awaited<ReturnType<CredentialsConfig['authorize']>>;
	try {
		user = await provider.authorize(credentials, request);
	} catch (error) {
		if (error instanceof CredentialsSignin) throw error;
		const foreign = foreignRefusal(error);
		if (foreign) throw foreign;
		throw new CallbackRouteError(`authorize() of "${provider.id}" threw`, { cause: error as Error });
	}
	if (!user) throw new CredentialsSignin('authorize() returned no user');
	const id = typeof user.id === 'string' && user.id ? user.id : randomUUID();
	return {
		user: { ...user, id },
		account: { type: 'credentials', provider: provider.id, providerAccountId: id },
		credentials
	};
}

/**
 * A refusal thrown by an `authorize()` written for Auth.js: its `CredentialsSignin` (from
 * `@auth/core/errors` or `@auth/sveltekit`, subclasses included) is not ours, but says the same,
 * `type` and `code` alike. Kept a refusal with its code (which is made URL-safe where it is used).
 */
function foreignRefusal(error: unknown): CredentialsSignin | undefined {
	if (!(error instanceof Error) || (error as { type?: unknown }).type !== 'CredentialsSignin') return undefined;
	const refusal = new CredentialsSignin(error.message, { cause: error });
	const { code } = error as { code?: unknown };
	if (typeof code === 'string') refusal.code = code;
	return refusal;
}

function withJson(headers: Headers): Headers {
	const copy = new Headers(headers);
	copy.set('content-type', 'application/json');
	copy.delete('content-length');
	return copy;
}
