import { serializeCookie } from './session/cookies.js';
import type { ResponseInternal } from './types/internal.js';

export const NO_CACHE = {
	'Cache-Control': 'private, no-cache, no-store',
	Expires: '0',
	Pragma: 'no-cache'
} as const;

/**
 * ResponseInternal → Response. Redirects are 302, or 200 `{url}` when the client asked for
 * JSON with `X-Auth-Return-Redirect` (it navigates itself). Cookies become `Set-Cookie` headers;
 * a HEAD request gets no body.
 */
export function toResponse(res: ResponseInternal, request: Request): Response {
	const headers = new Headers(res.headers);
	// A HEAD request gets the headers of its GET, and no body.
	const head = request.method.toUpperCase() === 'HEAD';
	for (const cookie of res.cookies ?? []) headers.append('Set-Cookie', serializeCookie(cookie));
	if (res.redirect) {
		if (request.headers.has('X-Auth-Return-Redirect')) {
			headers.set('Content-Type', 'application/json');
			return new Response(head ? null : JSON.stringify({ url: res.redirect }), { status: 200, headers });
		}
		headers.set('Location', res.redirect);
		return new Response(null, { status: 302, headers });
	}
	let body: string | null = null;
	if (typeof res.body === 'string') {
		body = res.body;
	} else if (res.body !== undefined) {
		body = JSON.stringify(res.body);
		if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
	}
	return new Response(head ? null : body, { status: res.status ?? 200, headers });
}
