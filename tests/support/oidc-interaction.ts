/**
 * Drives oidc-provider's `devInteractions` pages (its built-in login and consent forms) the way a
 * browser would: `fetch` with manual redirects and a tiny cookie jar, posting the forms it is shown,
 * until the OP sends the user agent back to the client. The client is never contacted: the last
 * redirect (or the auto-submitting `form_post` page) is returned to the test instead.
 *
 * The page parsing relies on the markup of oidc-provider 9.13's `views/login.js`,
 * `views/interaction.js`, `views/layout.js` and `response_modes/form_post.js`.
 */

export interface InteractionOptions {
	/**
	 * Who signs in: a login name of the IdP's accounts (`alice`, `bob`…). Default `alice`.
	 * (What is typed into the form is that account's `sub`, oidc-provider's accountId; any password.)
	 */
	login?: string;
	/** `false` presses "Cancel" on the consent page, which ends in `error=access_denied`. Default `true`. */
	consent?: boolean;
	/**
	 * The OP's cookies (name → value). Pass the same map to several flows to keep the OP session
	 * (then the login page is skipped); by default each flow starts with an empty jar.
	 */
	cookies?: Map<string, string>;
	/** Press "Cancel" on the first page the OP shows (login, or consent when already logged in). */
	deny?: boolean;
}

export type AuthorizationOutcome =
	/** The OP redirected to the client's `redirect_uri` (query response mode). */
	| { mode: 'redirect'; url: URL; prompts: string[] }
	/** The OP served a `form_post` page: `fields` would be POSTed to `action` (the `redirect_uri`). */
	| { mode: 'form_post'; action: URL; fields: URLSearchParams; prompts: string[] };

const MAX_STEPS = 20;

function decodeHtml(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

function attribute(html: string, pattern: RegExp, what: string): string {
	const match = pattern.exec(html);
	if (!match?.[1]) throw new Error(`devInteractions page without ${what}`);
	return decodeHtml(match[1]);
}

function storeCookies(jar: Map<string, string>, res: Response): void {
	for (const header of res.headers.getSetCookie()) {
		const [pair = '', ...attributes] = header.split(';');
		const eq = pair.indexOf('=');
		const name = pair.slice(0, eq).trim();
		const deleted = attributes.some((a) => {
			const [key = '', value = ''] = a.trim().split('=');
			if (key.toLowerCase() === 'max-age') return Number(value) <= 0;
			return key.toLowerCase() === 'expires' && Date.parse(value) <= Date.now();
		});
		if (deleted) jar.delete(name);
		else jar.set(name, pair.slice(eq + 1).trim());
	}
}

/** The short, token-free reason for an unexpected page (the OP's error pages carry no secrets). */
function excerpt(html: string): string {
	return html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}

export async function driveInteraction(
	issuer: string,
	authorizationUrl: string | URL,
	options: InteractionOptions = {}
): Promise<AuthorizationOutcome> {
	const { login = 'alice', consent = true, cookies = new Map<string, string>(), deny = false } = options;
	const origin = new URL(issuer).origin;
	const prompts: string[] = [];
	let url = new URL(authorizationUrl);
	let body: URLSearchParams | undefined;

	for (let step = 0; step < MAX_STEPS; step++) {
		if (url.origin !== origin) return { mode: 'redirect', url, prompts };
		const headers: Record<string, string> = {};
		if (cookies.size) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
		const res = await fetch(url, { method: body ? 'POST' : 'GET', body, headers, redirect: 'manual' });
		storeCookies(cookies, res);
		body = undefined;

		const location = res.headers.get('location');
		if (res.status >= 300 && res.status < 400 && location) {
			await res.body?.cancel();
			url = new URL(location, url);
			continue;
		}
		const html = await res.text();
		// form_post pages come with 200, or 400 when they carry an error.
		if (html.includes('<title>Submitting Callback</title>')) {
			const action = new URL(attribute(html, /<form method="post" action="([^"]*)"/, 'a form action'));
			const fields = new URLSearchParams();
			for (const [, name = '', value = ''] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)) {
				fields.append(decodeHtml(name), decodeHtml(value));
			}
			return { mode: 'form_post', action, fields, prompts };
		}
		const prompt = /<input type="hidden" name="prompt" value="(login|consent)"\/>/.exec(html)?.[1];
		if (res.status !== 200 || !prompt) {
			throw new Error(`unexpected OP response ${res.status} at ${url.pathname}: ${excerpt(html)}`);
		}
		prompts.push(prompt);
		if (deny || (prompt === 'consent' && !consent)) {
			// The "[ Cancel ]" link: GET /interaction/:uid/abort → access_denied back to the client.
			url = new URL(attribute(html, /href="([^"]*\/abort)"/, 'an abort link'), url);
			continue;
		}
		url = new URL(attribute(html, /<form[^>]*\saction="([^"]*)"/, 'a form action'), url);
		body =
			prompt === 'login'
				? new URLSearchParams({ prompt, login, password: 'any password' })
				: new URLSearchParams({ prompt });
	}
	throw new Error(`the OP did not send the user agent back within ${MAX_STEPS} steps`);
}
