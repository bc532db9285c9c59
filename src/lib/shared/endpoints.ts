/**
 * Where a provider's sign-in form posts, under the base path: the one home of this rule, for the
 * built-in sign-in page, the browser client (which knows a provider only by what `/providers`
 * says: id and type) and the server's own sign-ins (form actions, `signIn()`).
 */

/** The REST action a sign-in with a provider posts to. */
export type SignInAction = 'signin' | 'callback';

/**
 * Provider types proven on their callback alone — credentials' fields, a passkey's ceremony: there
 * is nothing to start, so their forms post straight to `callback/<id>`. The others start at
 * `signin/<id>` (a redirect to the identity provider, an email sent).
 */
const PROVEN_ON_CALLBACK: ReadonlySet<string> = new Set(['credentials', 'webauthn']);

/** The action a sign-in with a provider of `type` posts to. */
export function signInAction(type: string): SignInAction {
	return PROVEN_ON_CALLBACK.has(type) ? 'callback' : 'signin';
}

/** The URL a sign-in with `provider` posts to, under `base` (e.g. `/auth` or `https://app.example/auth`). */
export function signInEndpoint(base: string, provider: { id: string; type: string }): string {
	return `${base}/${signInAction(provider.type)}/${encodeURIComponent(provider.id)}`;
}
