import { parse } from 'devalue';
import { TestClient } from '../support/client.js';

/**
 * Talking to a running SvelteKit test app (tests/kit-app, tests/kit2-app) as a browser would:
 * a cookie jar, form actions posted plainly or as `use:enhance` does, the page state the apps
 * render for the tests to read.
 */

export const ACTION_HEADERS = { accept: 'application/json', 'x-sveltekit-action': 'true' };
export const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** A browser stand-in: a cookie jar, `Origin` on POSTs, the proxy's protocol header, no redirects followed. */
export function appBrowser(origin: string, basePath: string, userAgent: string): TestClient {
	return new TestClient(
		async (request) => {
			const headers = new Headers(request.headers);
			headers.set('x-forwarded-proto', 'http');
			if (!headers.has('user-agent')) headers.set('user-agent', userAgent);
			const body = request.body ? await request.arrayBuffer() : undefined;
			return fetch(request.url, { method: request.method, headers, body, redirect: 'manual' });
		},
		{ origin, basePath }
	);
}

export interface ActionResult {
	type: string;
	status: number;
	location?: string;
	data?: unknown;
}

/** A form action submitted as kit's client (`use:enhance`) does: JSON back, `data` devalue-encoded. */
export async function postEnhanced(client: TestClient, page: string, name: string, form: Record<string, string>) {
	const res = await client.post(`${page}?/${name}`, { form, headers: ACTION_HEADERS });
	const body = (await res.json()) as ActionResult;
	if (typeof body.data === 'string') body.data = parse(body.data);
	return { res, body };
}

export interface PageState {
	status: number;
	data: Record<string, unknown>;
	form: unknown;
}

/** The `<pre id="fixture-state">` the test apps' layouts render (load data and action result). */
export function pageState(html: string): PageState {
	const match = /<pre id="fixture-state">([^<]*)<\/pre>/.exec(html);
	if (!match?.[1]) throw new Error(`no fixture state in:\n${html.slice(0, 500)}`);
	const text = match[1]
		.replaceAll('&lt;', '<')
		.replaceAll('&gt;', '>')
		.replaceAll('&quot;', '"')
		.replaceAll('&#39;', "'")
		.replaceAll('&amp;', '&');
	return JSON.parse(text) as PageState;
}
