import { concatBytes } from './crypto/index.js';
import { InvalidRequest, UnknownAction } from './errors.js';
import { parseCookieHeader } from './session/cookies.js';
import { answersHead, isAuthAction, takesProvider } from './router.js';
import type { AuthAction } from './types/config.js';
import type { RequestInternal } from './types/internal.js';

/** What the platform knows about a request beyond the request itself. */
export interface Platform {
	/** The connection's address (SvelteKit: `event.getClientAddress()`). */
	clientAddress?: string;
	/**
	 * The integration passes requests on with the browser's own `Origin` and `Sec-Fetch-Site`
	 * headers: a state-changing POST that proves itself same-origin by them needs no CSRF token
	 * (clients written for `@auth/sveltekit`, which sends none). Cross-site, `null`-origin and
	 * origin-less POSTs still need the token. Off for the plain core.
	 */
	originProvesCsrf?: boolean;
	/**
	 * Keeps work that runs after the answer alive until it ends (Cloudflare Workers'
	 * `ctx.waitUntil`, which SvelteKit passes as `event.platform.ctx`): the messages kitauth sends
	 * after answering. Where the process outlives the request (Node), none is needed.
	 */
	waitUntil?: (promise: Promise<unknown>) => void;
}

/** Largest body we read: sign-in forms and WebAuthn responses are a few KB. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Deepest nesting of objects and arrays in a JSON body (a WebAuthn response has 3 levels). Deeper
 * input is refused where it is read: a flow that copies or serializes it (`JSON.stringify` of the
 * credentials) would otherwise overflow the stack, and answer a client's input as a server fault.
 */
export const MAX_BODY_DEPTH = 16;

/** Most fields a body may carry: a form's fields, or a JSON body's members at all depths. */
export const MAX_BODY_FIELDS = 256;

/**
 * `{basePath}/{action}[/{providerId}]` → action and provider id. Trailing and doubled slashes are
 * tolerated; anything else is an `UnknownAction` (400).
 */
export function parseActionAndProviderId(
	pathname: string,
	basePath: string
): { action: AuthAction; providerId?: string } {
	if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
		throw new UnknownAction(`Path is outside the base path ${basePath}`);
	}
	const segments = pathname.slice(basePath.length).split('/').filter(Boolean);
	const [action, rawProviderId, ...rest] = segments;
	if (!action || !isAuthAction(action) || rest.length > 0) {
		throw new UnknownAction('Unknown auth action');
	}
	if (rawProviderId === undefined) return { action };
	if (!takesProvider(action)) throw new UnknownAction(`${action} takes no provider id`);
	let providerId: string;
	try {
		providerId = decodeURIComponent(rawProviderId);
	} catch {
		throw new UnknownAction('Malformed provider id');
	}
	return { action, providerId };
}

/** Parses and bounds a request. Throws `UnknownAction` or `InvalidRequest` (both answered 400). */
export async function toInternalRequest(
	request: Request,
	basePath: string,
	platform: Platform = {}
): Promise<RequestInternal> {
	const asked = request.method.toUpperCase();
	if (asked !== 'GET' && asked !== 'POST' && asked !== 'HEAD') throw new UnknownAction(`Method ${asked} is not allowed`);
	let url: URL;
	try {
		url = new URL(request.url);
	} catch {
		throw new InvalidRequest('Malformed request URL');
	}
	const { action, providerId } = parseActionAndProviderId(url.pathname, basePath);
	// HEAD on a page is its GET (`toResponse` drops the body); elsewhere it is refused like any other method.
	if (asked === 'HEAD' && !answersHead(action)) throw new UnknownAction(`Method HEAD is not allowed on ${action}`);
	const method = asked === 'HEAD' ? 'GET' : asked;
	return {
		url,
		method,
		action,
		providerId,
		headers: request.headers,
		cookies: parseCookieHeader(request.headers.get('cookie')),
		query: firstValues(url.searchParams),
		body: method === 'POST' ? await readBody(request) : {},
		request,
		clientAddress: platform.clientAddress,
		originProvesCsrf: platform.originProvesCsrf === true,
		signal: request.signal,
		...(platform.waitUntil ? { waitUntil: platform.waitUntil } : {})
	};
}

function firstValues(params: URLSearchParams): Record<string, string> {
	const out: Record<string, string> = Object.create(null);
	for (const [key, value] of params) if (!(key in out)) out[key] = value;
	return out;
}

/** Reads a form or JSON body of at most {@link MAX_BODY_BYTES}; anything else is an empty body. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
	const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
	const form = type === 'application/x-www-form-urlencoded';
	const json = type === 'application/json';
	if (!form && !json) {
		if (type === 'multipart/form-data') return readMultipart(request);
		return {};
	}
	const text = new TextDecoder('utf-8', { fatal: false }).decode(await readLimited(request));
	if (form) return formFields(new URLSearchParams(text));
	if (text.trim() === '') return {};
	const parsed = parseBoundedJson(text);
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new InvalidRequest('The JSON body must be an object');
	}
	return Object.assign(Object.create(null), parsed) as Record<string, unknown>;
}

/**
 * JSON text from a client, parsed and held to {@link MAX_BODY_DEPTH} and {@link MAX_BODY_FIELDS};
 * anything else is an `InvalidRequest` (400).
 */
function parseBoundedJson(text: string): unknown {
	let parsed: unknown;
	try {
		// V8's JSON.parse does not recurse: any depth parses, and is measured next.
		parsed = JSON.parse(text);
	} catch {
		throw new InvalidRequest('The JSON body is malformed');
	}
	// Walked with a list, not recursion: the point is a value too deep to recurse into.
	const pending: [value: unknown, depth: number][] = [[parsed, 0]];
	let fields = 0;
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [value, depth] = next;
		if (typeof value !== 'object' || value === null) continue;
		if (depth >= MAX_BODY_DEPTH) throw new InvalidRequest(`The JSON body is nested more than ${MAX_BODY_DEPTH} levels deep`);
		for (const member of Object.values(value)) {
			if (++fields > MAX_BODY_FIELDS) throw new InvalidRequest(`The JSON body has more than ${MAX_BODY_FIELDS} fields`);
			pending.push([member, depth + 1]);
		}
	}
	return parsed;
}

/** A form's fields, the first value of each, at most {@link MAX_BODY_FIELDS} of them. */
function formFields(entries: Iterable<[string, FormDataEntryValue]>): Record<string, unknown> {
	const out: Record<string, unknown> = Object.create(null);
	let count = 0;
	for (const [key, value] of entries) {
		if (++count > MAX_BODY_FIELDS) throw new InvalidRequest(`The form has more than ${MAX_BODY_FIELDS} fields`);
		if (typeof value === 'string' && !(key in out)) out[key] = value;
	}
	return out;
}

async function readMultipart(request: Request): Promise<Record<string, unknown>> {
	// Read (bounded) first, then parse: formData() on the request itself would buffer any size.
	const bytes = await readLimited(request);
	let data: FormData;
	try {
		data = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
	} catch {
		throw new InvalidRequest('The form body is malformed');
	}
	return formFields(data);
}

/** Reads the body, refusing more than {@link MAX_BODY_BYTES} without buffering it all. */
async function readLimited(request: Request): Promise<Uint8Array<ArrayBuffer>> {
	const declared = request.headers.get('content-length');
	if (declared !== null && Number(declared) > MAX_BODY_BYTES) {
		throw new InvalidRequest('The request body is too large', 413);
	}
	if (!request.body) return new Uint8Array(new ArrayBuffer(0));
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > MAX_BODY_BYTES) {
			// Stop reading and let go; cancelling races the stream's own producer (undici then
			// rejects an enqueue nobody awaits).
			reader.releaseLock();
			throw new InvalidRequest('The request body is too large', 413);
		}
		chunks.push(value);
	}
	return concatBytes(...chunks);
}
