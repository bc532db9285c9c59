import { SvelteKitAuth } from 'kitauth';
import Credentials from 'kitauth/providers/credentials';
import OIDC from 'kitauth/providers/oidc';

/** The one user `authorize()` accepts. */
export const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

/**
 * `KIT2_APP_FORM_POST` (JSON: `[{ id, issuer, clientId, clientSecret }]`, set by
 * tests/sveltekit/published.test.ts): OpenID providers that answer with `response_mode=form_post`,
 * a cross-site POST to their callback.
 */
const formPost = JSON.parse(process.env.KIT2_APP_FORM_POST ?? '[]').map((provider) =>
	OIDC({ ...provider, name: provider.id, authorization: { params: { response_mode: 'form_post' } } })
);

/** kitauth as an app imports it (the published package): JWT sessions, no adapter. */
export const config = {
	providers: [
		Credentials({
			credentials: {
				email: { label: 'Email', type: 'email' },
				password: { label: 'Password', type: 'password' }
			},
			authorize: ({ email, password }) =>
				email === ALICE.email && password === ALICE.password ? { id: 'user-alice', email, name: 'Alice' } : null
		}),
		...formPost
	]
};

export const { handle, signIn, signOut } = SvelteKitAuth(config);
