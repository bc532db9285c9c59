import { sequence } from '@sveltejs/kit/hooks';
import { SvelteKitAuth } from 'kitauth';
import Credentials from 'kitauth/providers/credentials';

/**
 * kitauth's smallest useful set-up: a credentials provider on JWT sessions (no adapter, no
 * database). The secret and the trusted host come from the environment (AUTH_SECRET, AUTH_TRUST_HOST).
 */
const { handle: kitauth } = SvelteKitAuth({
	providers: [
		Credentials({
			credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
			authorize: ({ email, password }) => (email === 'bench@example.com' && password === 'bench' ? { id: 'bench', email } : null)
		})
	]
});

export const handle = sequence(kitauth);
