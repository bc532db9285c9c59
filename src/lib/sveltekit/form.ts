import { safeCallbackUrl } from '../core/index.js';
import type { AuthActionFailure } from './types.js';

/** The validated fields of a sign-in form. */
export interface SignInFields {
	providerId?: string;
	/** Everything else the form sent (credentials fields, custom options). */
	options: Record<string, string>;
	authorizationParams: URLSearchParams;
	redirectTo?: string;
}

type Result<T> = { ok: true; value: T } | { ok: false; failure: AuthActionFailure };

const CONTROL_FIELDS = new Set(['providerId', 'options', 'authorizationParams', 'redirectTo']);
const AUTHORIZATION_PREFIX = 'authorizationParams-';

function failure(): AuthActionFailure {
	return { failed: true, fieldErrors: {}, formErrors: [] };
}

function single(form: FormData, name: string, out: AuthActionFailure): string | undefined {
	const values = form.getAll(name);
	if (values.length === 0) return undefined;
	const key = name as keyof AuthActionFailure['fieldErrors'];
	if (values.length > 1) {
		(out.fieldErrors[key] ??= []).push('Give a single value.');
		return undefined;
	}
	const [value] = values;
	if (typeof value !== 'string') {
		(out.fieldErrors[key] ??= []).push('Must be text, not a file.');
		return undefined;
	}
	return value;
}

/**
 * `redirectTo` must stay on this site: a path, or an absolute URL of this origin. Returned as a
 * path or full URL; `undefined` with an error recorded otherwise.
 */
export function validRedirectTo(value: string | undefined, origin: string, out: AuthActionFailure): string | undefined {
	if (value === undefined || value === '') return undefined;
	const safe = safeCallbackUrl(value, origin);
	if (safe) return safe;
	(out.fieldErrors.redirectTo ??= []).push('Must be a path on this site.');
	return undefined;
}

/** Validates a sign-in form into fields, or into the spec's `{failed, fieldErrors, formErrors}`. */
export function parseSignInForm(form: FormData, providerIds: readonly string[], origin: string): Result<SignInFields> {
	const out = failure();
	const providerId = single(form, 'providerId', out);
	if (providerId !== undefined && !providerIds.includes(providerId)) {
		(out.fieldErrors.providerId ??= []).push(`Unknown provider "${providerId.slice(0, 64)}".`);
	}
	const options: Record<string, string> = {};
	const rawOptions = single(form, 'options', out);
	if (rawOptions !== undefined && rawOptions !== '') {
		const parsed = parseStringRecord(rawOptions);
		if (parsed) Object.assign(options, parsed);
		else (out.fieldErrors.options ??= []).push('Must be a JSON object of text values.');
	}
	const authorizationParams = new URLSearchParams();
	const rawParams = single(form, 'authorizationParams', out);
	if (rawParams !== undefined && rawParams !== '') {
		const parsed = rawParams.trimStart().startsWith('{')
			? parseStringRecord(rawParams)
			: Object.fromEntries(new URLSearchParams(rawParams));
		if (parsed) for (const [key, value] of Object.entries(parsed)) authorizationParams.set(key, value);
		else (out.fieldErrors.authorizationParams ??= []).push('Must be a query string or a JSON object of text values.');
	}
	for (const [name, value] of form) {
		if (CONTROL_FIELDS.has(name)) continue;
		if (typeof value !== 'string') {
			out.formErrors.push(`Field "${name.slice(0, 64)}" must be text, not a file.`);
		} else if (name.startsWith(AUTHORIZATION_PREFIX)) {
			authorizationParams.set(name.slice(AUTHORIZATION_PREFIX.length), value);
		} else if (!Object.hasOwn(options, name)) {
			options[name] = value;
		}
	}
	const redirectTo = validRedirectTo(single(form, 'redirectTo', out) ?? options.redirectTo, origin, out);
	delete options.redirectTo;
	if (Object.keys(out.fieldErrors).length || out.formErrors.length) return { ok: false, failure: out };
	return { ok: true, value: { providerId, options, authorizationParams, redirectTo } };
}

/** Validates a sign-out form (`redirectTo` only). */
export function parseSignOutForm(form: FormData, origin: string): Result<{ redirectTo?: string }> {
	const out = failure();
	const redirectTo = validRedirectTo(single(form, 'redirectTo', out), origin, out);
	if (Object.keys(out.fieldErrors).length) return { ok: false, failure: out };
	return { ok: true, value: { redirectTo } };
}

function parseStringRecord(text: string): Record<string, string> | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const out: Record<string, string> = {};
	for (const [key, item] of Object.entries(value)) {
		if (typeof item === 'string') out[key] = item;
		else if (typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
		else return undefined;
	}
	return out;
}
