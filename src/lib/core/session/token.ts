import type { AuthContext } from '../context.js';
import type { JWT } from '../types/models.js';
import { openToken, sealToken } from './jwt.js';

/**
 * Session-token codec of one request: the built-in keyring path (keys derived once per secret),
 * or the app's own `jwt.encode`/`jwt.decode`. The salt is the session cookie's name. `maxAge`: seconds
 * the token lives (`jwt.maxAge`, or less when the absolute lifetime ends sooner).
 */
export async function encodeSessionToken(ctx: AuthContext, token: JWT, maxAge = ctx.options.jwt.maxAge): Promise<string> {
	const { jwt, builtinJwt, keyring } = ctx.options;
	const salt = ctx.cookies.sessionToken.name;
	if (builtinJwt) return sealToken(keyring, salt, token, maxAge);
	return jwt.encode({ token, secret: jwt.secret, salt, maxAge });
}

/** Opens a session token; `salt` is the name of the cookie it came in (Auth.js's `__Secure-` one, say). */
export async function decodeSessionToken(ctx: AuthContext, raw: string, salt = ctx.cookies.sessionToken.name): Promise<JWT | null> {
	const { jwt, builtinJwt, keyring } = ctx.options;
	if (builtinJwt) return openToken(keyring, salt, raw);
	try {
		return await jwt.decode({ token: raw, secret: jwt.secret, salt });
	} catch {
		return null;
	}
}
