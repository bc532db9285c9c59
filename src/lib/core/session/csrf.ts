import { hex, randomBytes, sha256, timingSafeEqual } from '../crypto/index.js';

export interface CsrfState {
	/** The raw token: what `GET /auth/csrf` returns and forms carry as `csrfToken`. */
	token: string;
	/** Did the POST body carry the token of a valid cookie? */
	verified: boolean;
	/** The cookie value to set when a new token was minted. */
	cookieValue?: string;
}

/**
 * Double-submit CSRF, Auth.js compatible: the cookie holds `token|sha256(token + secret)`, so only
 * this server can mint a valid cookie, and a POST must echo the token in its body.
 */
export async function checkCsrf(
	cookieValue: string | undefined,
	secret: string,
	bodyToken: unknown
): Promise<CsrfState> {
	if (cookieValue) {
		const bar = cookieValue.indexOf('|');
		const token = cookieValue.slice(0, bar);
		const hash = cookieValue.slice(bar + 1);
		if (bar > 0 && /^[0-9a-f]{64}$/.test(token) && timingSafeEqual(hash, await sha256(token + secret, 'hex'))) {
			return { token, verified: typeof bodyToken === 'string' && timingSafeEqual(bodyToken, token) };
		}
	}
	const token = hex(randomBytes(32));
	return { token, verified: false, cookieValue: `${token}|${await sha256(token + secret, 'hex')}` };
}
