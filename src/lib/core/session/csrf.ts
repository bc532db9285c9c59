import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

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
export function checkCsrf(
	cookieValue: string | undefined,
	secret: string,
	bodyToken: unknown
): CsrfState {
	if (cookieValue) {
		const bar = cookieValue.indexOf('|');
		const token = cookieValue.slice(0, bar);
		const hash = cookieValue.slice(bar + 1);
		if (bar > 0 && /^[0-9a-f]{64}$/.test(token) && safeEqual(hash, sha256(token + secret))) {
			return { token, verified: typeof bodyToken === 'string' && safeEqual(bodyToken, token) };
		}
	}
	const token = randomBytes(32).toString('hex');
	return { token, verified: false, cookieValue: `${token}|${sha256(token + secret)}` };
}

function sha256(value: string): string {
	return hash('sha256', value, 'hex');
}

function safeEqual(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}
