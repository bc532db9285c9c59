/**
 * "Remember this device": after a second factor, a sealed cookie (`authjs.two-factor-device`) names
 * the user and when it was issued. It skips the second factor for that user until it expires, and
 * stops counting once the user's devices are forgotten (`forgetTwoFactorDevices`: by the user, or
 * when a credential changes) or two-factor is turned off and on again (`enabledAt` is also the
 * cutoff). One user per browser: remembering another replaces it.
 */
import type { AuthContext } from '../context.js';
import { openToken, sealToken } from '../session/jwt.js';
import type { Cookie } from '../types/internal.js';
import type { AdapterTwoFactor } from '../types/two-factor.js';

/** The cookie that remembers this browser for `userId`; `undefined` when the option is off. */
export async function rememberDeviceCookie(ctx: AuthContext, userId: string): Promise<Cookie | undefined> {
	const maxAge = ctx.options.twoFactor?.rememberMaxAge ?? 0;
	if (!maxAge) return undefined;
	const { name, options } = ctx.cookies.twoFactorDevice;
	const value = await sealToken(ctx.options.keyring, name, { sub: userId, at: Date.now() }, maxAge);
	return { name, value, options: { ...options, maxAge } };
}

/** Does the request's cookie remember this browser for the user, under their current record? */
export async function rememberedFor(ctx: AuthContext, requestCookies: Record<string, string>, record: AdapterTwoFactor): Promise<boolean> {
	if (!ctx.options.twoFactor?.rememberMaxAge || !record.enabledAt) return false;
	const { name } = ctx.cookies.twoFactorDevice;
	const raw = requestCookies[name];
	const claims = raw ? await openToken(ctx.options.keyring, name, raw) : null;
	if (!claims || claims.sub !== record.userId || typeof claims.at !== 'number') return false;
	const cutoff = Math.max(record.enabledAt.getTime(), record.devicesValidAfter?.getTime() ?? 0);
	// Strictly after: a device remembered in the same millisecond as a forgetting is forgotten too.
	return claims.at > cutoff;
}
