/**
 * kitauth's published types as a SvelteKit 2 app uses them, type-checked with `tsc` by
 * tests/sveltekit/kit2-app.test.ts: Session and JWT augmented, `locals.auth()` in a load, the
 * handle in `sequence`, the callbacks and a CredentialsSignin subclass. Every `@ts-expect-error`
 * below must be an error, so a type that silently widens fails the check.
 */
import type { Actions, Handle, ServerLoad } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { CredentialsSignin, type Session, SvelteKitAuth } from 'kitauth';
import Credentials from 'kitauth/providers/credentials';

declare module 'kitauth' {
	interface Session {
		role: 'admin' | 'member';
	}
	interface JWT {
		role?: 'admin' | 'member';
	}
}

class InactiveAccount extends CredentialsSignin {
	override code = 'inactive';
}

export const { handle: auth, signIn, signOut } = SvelteKitAuth({
	providers: [
		Credentials({
			credentials: { email: { label: 'Email', type: 'email' } },
			authorize: async ({ email }) => {
				if (email === 'inactive@example.com') throw new InactiveAccount();
				return typeof email === 'string' ? { id: 'user-1', email } : null;
			}
		})
	],
	callbacks: {
		jwt: ({ token }) => ({ ...token, role: token.role ?? 'member' }),
		session: ({ session, token }) => ({ ...session, role: token?.role ?? 'member' })
	}
});

export const handle: Handle = sequence(auth);

export const load: ServerLoad = async ({ locals }) => {
	const session = await locals.auth();
	const role: 'admin' | 'member' | undefined = session?.role;
	// @ts-expect-error: the augmented role is not any string
	const owner: Session['role'] = 'owner';
	// @ts-expect-error: locals.auth() may answer null
	const expires: string = (await locals.auth()).expires;
	const type: 'CredentialsSignin' = InactiveAccount.type;
	return { role, owner, expires, type };
};

export const actions: Actions = { signIn, signOut };
