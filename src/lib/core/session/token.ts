import type { AuthContext } from '../context.js';
import type { JWT } from '../types/models.js';
import { openToken, sealToken } from './jwt.js';

/**
 * Session-token codec of one request: the built-in keyring path (keys derived once per secret),
 * or the app's own `jwt.encode`/`jwt.decode`. The salt is the session cookie's name.
 */
export async function encodeSessionToken(ctx: AuthContext, token: JWT): Promise<string> {
	const { jwt, builtinJwt, keyring } = ctx.options;
	const salt = ctx.cookies.sessionToken.name;
	if (builtinJwt) return sealToken(keyring, salt, token, jwt.maxAge);
	return jwt.encode({ token, secret: jwt.secret, salt, maxAge: jwt.maxAge });
}

export async function decodeSessionToken(ctx: AuthContext, raw: string): Promise<JWT | null> {
	const { jwt, builtinJwt, keyring } = ctx.options;
	const salt = ctx.cookies.sessionToken.name;
	if (builtinJwt) return openToken(keyring, salt, raw);
	try {
		return await jwt.decode({ token: raw, secret: jwt.secret, salt });
	} catch {
		return null;
	}
}
