import { envSecrets, processEnv } from '../env.js';
import { MissingSecret } from '../errors.js';
import type { JWTOptions } from '../types/config.js';
import type { JWT } from '../types/models.js';
import { cookieTable, parseCookieHeader } from './cookies.js';
import { cookieJar } from './jar.js';
import { decode } from './jwt.js';

export interface GetTokenParams<R extends boolean = false> {
	/** The request, or anything with its headers (the `Cookie` or `Authorization: Bearer` header). */
	req: Request | { headers: Headers | Record<string, string> };
	/**
	 * Whether the session cookie is the https one (`__Host-authjs.session-token`, or Auth.js's
	 * `__Secure-authjs.session-token`, both read). Default: whether `req` is an https `Request`,
	 * else false.
	 */
	secureCookie?: boolean;
	/** The session cookie's name, when the app renamed it. */
	cookieName?: string;
	/** `true`: the token as sent, not decoded (no secret needed). */
	raw?: R;
	/** Default: the environment's (`AUTH_SECRET`, `AUTH_SECRET_1..3`, `NEXTAUTH_SECRET`). */
	secret?: string | string[];
	/** The key derivation salt. Default: the cookie's name, as kitauth seals session tokens. */
	salt?: string;
	/** The app's own `jwt.decode`, if it has one. */
	decode?: JWTOptions['decode'];
}

/**
 * The session token of a request, decoded (Auth.js's `getToken`): for API routes, or anything that
 * wants the JWT itself rather than the session `locals.auth()` gives. `null` when there is no
 * token or it does not open (forged, expired, another secret's).
 */
export async function getToken(params: GetTokenParams<false>): Promise<JWT | null>;
export async function getToken(params: GetTokenParams<true>): Promise<string | null>;
export async function getToken(params: GetTokenParams<boolean>): Promise<JWT | string | null> {
	const { req, raw } = params;
	if (!req) throw new TypeError('getToken needs `req`');
	const headers = req.headers instanceof Headers ? req.headers : new Headers(req.headers);
	const secure = params.secureCookie ?? (req instanceof Request && req.url.startsWith('https:'));
	const table = cookieTable(secure, params.cookieName ? { sessionToken: { name: params.cookieName } } : {});
	// The jar's order: kitauth's cookie (`__Host-` on https), then Auth.js's `__Secure-` one; each whole, then chunked.
	const jar = cookieJar(parseCookieHeader(headers.get('cookie')), table);
	const candidates = jar.sessionValues().map(({ value, name }) => ({ token: value, name }));
	const bearerToken = bearer(headers.get('authorization'));
	if (bearerToken) candidates.push({ token: bearerToken, name: table.sessionToken.name });
	if (candidates.length === 0) return null;
	if (raw) return candidates[0]!.token;
	const secret = params.secret ?? envSecrets(processEnv());
	if (secret.length === 0) {
		throw new MissingSecret('getToken needs a secret: pass `secret` or set AUTH_SECRET.');
	}
	for (const { token, name } of candidates) {
		try {
			const decoded = await (params.decode ?? decode)({ token, secret, salt: params.salt ?? name });
			if (decoded) return decoded;
		} catch {
			// The next candidate, if any.
		}
	}
	return null;
}

/**
 * `Authorization: Bearer <token>`, percent-decoded; one that does not decode is no token at all
 * (as in Auth.js since GHSA-xmf8-cvqr-rfgj: `raw: true` then answers `null`, not the bytes sent).
 */
function bearer(header: string | null): string | undefined {
	const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
	if (!match?.[1]) return undefined;
	try {
		return decodeURIComponent(match[1]);
	} catch {
		return undefined;
	}
}
