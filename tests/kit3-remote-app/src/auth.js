import { SvelteKitAuth } from 'kitauth';
import Credentials from 'kitauth/providers/credentials';

/** The one user `authorize()` accepts. */
export const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

/** kitauth as an app imports it (the published package): JWT sessions, no adapter. */
export const config = {
	// The built app gets AUTH_SECRET from the test; `vite dev` runs with no AUTH_* at all.
	secret: process.env.AUTH_SECRET ?? 'kit3-remote-app-dev-secret-0123456789abcdef',
	providers: [
		Credentials({
			credentials: {
				email: { label: 'Email', type: 'email' },
				password: { label: 'Password', type: 'password' }
			},
			authorize: ({ email, password }) =>
				email === ALICE.email && password === ALICE.password ? { id: 'user-alice', email, name: 'Alice' } : null
		})
	]
};

export const { handle } = SvelteKitAuth(config);
