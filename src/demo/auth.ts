import { dev } from '$app/env';
import { SvelteKitAuth, type SvelteKitAuthConfig } from '#lib';
import Credentials from '#lib/providers/credentials.js';
import { demoSecret } from './secret.js';
import { checkDemoPassword } from './users.js';

/** The demo's kitauth configuration: one credentials provider with the demo user. */
export const authConfig: SvelteKitAuthConfig = {
	secret: demoSecret(dev),
	providers: [
		Credentials({
			credentials: {
				email: { label: 'Email', type: 'email', autocomplete: 'username', required: true },
				password: { label: 'Password', type: 'password', autocomplete: 'current-password', required: true }
			},
			authorize: ({ email, password }) => checkDemoPassword(email, password)
		})
	],
	pages: { signIn: '/signin' }
};

export const { handle, signIn, signOut } = SvelteKitAuth(authConfig);
