import { type RequestEvent, VERSION } from '@sveltejs/kit';
import type { AuthServer, FormPostCallback } from '../core/index.js';

/** Marks the probe; its value is a random per-instance nonce, so nobody else can ask for the answer. */
const PROBE_HEADER = 'x-kitauth-form-post-probe';

/** What SvelteKit (2 and 3) answers a cross-site form POST it refuses. */
const REFUSAL = 'Cross-site POST form submissions are forbidden';

/**
 * Finds out whether SvelteKit lets each `form_post` provider's callback through, and says what to
 * change when it does not.
 *
 * Why a probe: SvelteKit refuses a form POST whose Origin is not the app's (403, `REFUSAL`) in its
 * own request pipeline, before any `handle` runs, unless the origin is in `csrf.trustedOrigins`;
 * so kitauth's handle never sees a refused callback (no hook does: `handleError` and `init` are not
 * told either). Nor does either kit expose its trusted origins at run time: SvelteKit 3 compiles
 * them into its generated server module (only `'*'` shows, through a build define), SvelteKit 2
 * keeps them in its internal options. So kitauth asks the kit itself, once per provider origin
 * and process, at the first request that reaches the handle: a bodiless POST through
 * `event.fetch`, which runs SvelteKit's same pipeline and check, to the callback with the
 * provider's Origin. The handle answers that probe itself (204) when it gets that far. In
 * development SvelteKit 3 (and 2.37+) skip the check, so the probe passes and the warning shows
 * where the refusal would happen: in a production build.
 */
export function createFormPostCheck(): {
	answer(event: RequestEvent): Response | undefined;
	check(event: RequestEvent, server: AuthServer): Promise<void>;
} {
	// Made at the first probe: Workers allow no random values at start-up (module scope).
	let nonce: string | undefined;
	const probed = new Set<string>();
	return {
		answer: (event) =>
			nonce !== undefined && event.request.method === 'POST' && event.request.headers.get(PROBE_HEADER) === nonce
				? new Response(null, { status: 204, headers: { [PROBE_HEADER]: 'reached' } })
				: undefined,
		async check(event, server) {
			for (const callback of server.formPostCallbacks) {
				if (probed.has(callback.origin)) continue;
				probed.add(callback.origin);
				nonce ??= crypto.randomUUID();
				if (await refused(event, callback, nonce)) console.warn(formPostWarning(callback, VERSION));
			}
		}
	};
}

async function refused(event: RequestEvent, callback: FormPostCallback, nonce: string): Promise<boolean> {
	try {
		const res = await event.fetch(new URL(callback.path, event.url).href, {
			method: 'POST',
			headers: { origin: callback.origin, 'content-type': 'application/x-www-form-urlencoded', [PROBE_HEADER]: nonce },
			body: '',
			credentials: 'omit'
		});
		return res.status === 403 && res.headers.get(PROBE_HEADER) === null && (await res.text()).includes(REFUSAL);
	} catch {
		return false; // no answer tells nothing: say nothing
	}
}

/** The warning, with the setting to add where this SvelteKit (`version`) reads it. */
export function formPostWarning(callback: FormPostCallback, version: string): string {
	const origins = `['${callback.origin}']`;
	const [major = 0, minor = 0] = version.split('.').map(Number);
	const fix =
		major >= 3
			? `in vite.config.ts: sveltekit({ csrf: { trustedOrigins: ${origins} } })`
			: major === 2 && minor >= 36
				? `in svelte.config.js: kit: { csrf: { trustedOrigins: ${origins} } }`
				: `SvelteKit ${version} has no csrf.trustedOrigins: upgrade to 2.36 or later, then in svelte.config.js: kit: { csrf: { trustedOrigins: ${origins} } }`;
	return (
		`[kitauth][warn][form-post-csrf] ${callback.providerName} (${callback.providerId}) answers sign-ins with a form POST from ${callback.origin} ` +
		`(response_mode=form_post) to ${callback.path}, and SvelteKit refuses it before kitauth's handle runs ` +
		`(403 "${REFUSAL}"), so signing in with it fails. Trust that origin ${fix}`
	);
}
