/**
 * kitauth's published types as a SvelteKit 2 app uses them, type-checked with `tsc` by
 * tests/sveltekit/published.test.ts: Session and JWT augmented, `locals.auth()` in a load, the
 * handle in `sequence`, the callbacks, a CredentialsSignin subclass and the browser API. Every
 * `@ts-expect-error` below must be an error, so a type that silently widens fails the check.
 */
import type { Actions, Handle, ServerLoad } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { CredentialsSignin, type JWT, type Session, SvelteKitAuth } from 'kitauth';
import { signIn as signInFromBrowser, type SignInResult, signOut as signOutFromBrowser } from 'kitauth/client';
import { getToken } from 'kitauth/jwt';
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

/** The browser API (`kitauth/client`), as a component's handler would call it. */
export async function browserSignIn(email: string, password: string): Promise<string | null> {
	const result: SignInResult = await signInFromBrowser('credentials', { email, password, redirect: false });
	// @ts-expect-error: ok is a boolean, not a message
	const message: string = result.ok;
	await signOutFromBrowser({ redirectTo: '/' });
	return result.ok ? null : (result.code ?? message);
}

/** `getToken` in an endpoint: the augmented JWT, or the raw string. */
export async function tokenRole(request: Request): Promise<string | undefined> {
	const token: JWT | null = await getToken({ req: request });
	const raw: string | null = await getToken({ req: request, raw: true });
	// @ts-expect-error: raw: true gives the string, not the claims
	const claims: JWT | null = await getToken({ req: request, raw: true });
	return token?.role ?? raw ?? claims?.sub;
}

