import { SvelteKitAuth } from 'kitauth';
import Credentials from 'kitauth/providers/credentials';

/** The one user `authorize()` accepts. */
export const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

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
		})
	]
};

export const { handle, signIn, signOut } = SvelteKitAuth(config);
