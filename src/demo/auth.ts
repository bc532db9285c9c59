import { dev } from '$app/env';
import { SvelteKitAuth, type SvelteKitAuthConfig } from '#lib';
import { LibSQLAdapter } from '#lib/adapters/libsql/index.js';
import Credentials from '#lib/providers/credentials.js';
import { demoDatabase, demoStrategy } from './database.js';
import { demoSecret } from './secret.js';
import { checkDemoPassword } from './users.js';

export const database = demoDatabase();

/** The demo's kitauth configuration: the demo user, on database sessions by default. */
export const authConfig: SvelteKitAuthConfig = {
	secret: demoSecret(dev),
	adapter: LibSQLAdapter(database),
	session: { strategy: demoStrategy() },
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

export const { handle, signIn, signOut, sessions } = SvelteKitAuth(authConfig);
