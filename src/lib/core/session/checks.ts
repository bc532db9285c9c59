import type { AuthContext } from '../context.js';
import { InvalidCheck } from '../errors.js';
import type { Cookie } from '../types/internal.js';
import { CHECK_COOKIE_MAX_AGE, expiredCookie } from './cookies.js';
import { openToken, sealToken } from './jwt.js';

/** The cookies that carry a flow's checks between the start and the callback. */
export type CheckKey = 'state' | 'nonce' | 'pkceCodeVerifier' | 'webauthnChallenge';

/**
 * Seals a check value into its cookie: encrypted under a key derived from that cookie's own name
 * (so it can never pass as a session token), bound to the provider that started the flow, and
 * living 15 minutes (or `maxAge` seconds). One pair of helpers for every sealed check cookie.
 */
export async function sealCheck(
	ctx: AuthContext,
	key: CheckKey,
	value: string,
	providerId: string,
	options: { crossSitePost?: boolean; maxAge?: number } = {}
): Promise<Cookie> {
	const { name, options: cookieOptions } = ctx.cookies[key];
	const maxAge = options.maxAge ?? CHECK_COOKIE_MAX_AGE;
	const sealed = await sealToken(ctx.options.keyring, name, { value, provider: providerId }, maxAge);
	// A `form_post` callback is a cross-site POST: only SameSite=None cookies come along (https only).
	const crossSite = options.crossSitePost && cookieOptions.secure ? { sameSite: 'none' as const } : {};
	return { name, value: sealed, options: { ...cookieOptions, maxAge, ...crossSite } };
}

/**
 * Opens the check cookies a callback needs, and queues their deletion (used once, whatever the
 * outcome). A missing, unreadable, expired or other-provider cookie is an `InvalidCheck`, raised
 * before anything is sent to the provider.
 */
export async function openChecks<K extends CheckKey>(
	ctx: AuthContext,
	requestCookies: Record<string, string>,
	providerId: string,
	needed: readonly K[]
): Promise<Record<K, string>> {
	const values = {} as Record<K, string>;
	for (const key of needed) {
		const { name, options } = ctx.cookies[key];
		if (requestCookies[name] !== undefined) ctx.pendingCookies.push(expiredCookie(name, options));
	}
	for (const key of needed) {
		const { name } = ctx.cookies[key];
		const raw = requestCookies[name];
		if (!raw) throw new InvalidCheck(`The ${key} cookie is missing`);
		const claims = await openToken(ctx.options.keyring, name, raw);
		if (!claims || typeof claims.value !== 'string') throw new InvalidCheck(`The ${key} cookie is invalid or expired`);
		if (claims.provider !== providerId) throw new InvalidCheck(`The ${key} cookie belongs to another provider`);
		values[key] = claims.value;
	}
	return values;
}
