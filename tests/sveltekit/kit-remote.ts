import { parse, stringify } from 'devalue';
import type { TestClient } from '../support/client.js';

/**
 * Calling a running SvelteKit 3.2 app's remote functions as kit's browser client does, over HTTP:
 * queries by GET, commands and enhanced forms by POST to `{base}/_app/remote/<hash>/<name>`,
 * arguments and results devalue-encoded. (Kit's own wire format, read in
 * `@sveltejs/kit/src/runtime/client/remote-functions/` and `runtime/server/remote-functions.js`.)
 */

/**
 * What a remote call answers: its value (a form's `result`, and its validation `issues` if any),
 * the queries it refreshed and where it redirects; or an error.
 */
export type RemoteAnswer =
	| { type: 'result'; value: unknown; issues?: unknown[]; refreshed: Record<string, unknown>; redirect?: string }
	| { type: 'error'; status: number; message: string };

/** The id (`<hash>/<name>`) of a remote function, as a page's HTML names it (actions, field names, hydration keys). */
export function remoteId(html: string, name: string): string {
	const match = new RegExp(`([a-z0-9]+)/${name}\\b`).exec(html);
	if (!match) throw new Error(`no remote function ${name} in:\n${html.slice(0, 300)}`);
	return `${match[1]}/${name}`;
}

/** An argument as kit sends it: devalue, then base64url. */
export function remotePayload(value: unknown): string {
	return value === undefined ? '' : Buffer.from(stringify(value)).toString('base64url');
}

async function answer(res: Response, form = false): Promise<RemoteAnswer> {
	const body = (await res.json()) as { type: string; data?: string; error?: { status: number; message: string } };
	if (body.type === 'error') return { type: 'error', status: body.error!.status, message: body.error!.message };
	const data = (body.data ? parse(body.data) : {}) as { _?: unknown; q?: Record<string, { v?: unknown }>; redirect?: string };
	const refreshed = Object.fromEntries(Object.entries(data.q ?? {}).map(([key, node]) => [key, node.v]));
	const output = data._ as { result?: unknown; issues?: unknown[] } | undefined;
	return {
		type: 'result',
		value: form ? output?.result : data._,
		...(form && output?.issues ? { issues: output.issues } : {}),
		refreshed,
		...(data.redirect ? { redirect: data.redirect } : {})
	};
}

export async function remoteQuery(client: TestClient, base: string, id: string, arg?: unknown): Promise<RemoteAnswer> {
	return answer(await client.get(`${base}/_app/remote/${id}`, { query: { payload: remotePayload(arg) } }));
}

export async function remoteCommand(client: TestClient, base: string, id: string, arg?: unknown): Promise<RemoteAnswer> {
	return answer(await client.post(`${base}/_app/remote/${id}`, { json: { payload: remotePayload(arg) } }));
}

/**
 * A remote form submitted with JavaScript (kit sends it from `page`): its fields named as
 * `field.as(…)` names them (`<name>/<id>`).
 */
export async function remoteForm(client: TestClient, base: string, id: string, page: string, fields: Record<string, string>): Promise<RemoteAnswer> {
	const form = Object.fromEntries(Object.entries(fields).map(([name, value]) => [`${name}/${id}`, value]));
	return answer(await client.post(`${base}/_app/remote/${id}`, { form, headers: { 'x-sveltekit-pathname': page, 'x-sveltekit-search': '' } }), true);
}
