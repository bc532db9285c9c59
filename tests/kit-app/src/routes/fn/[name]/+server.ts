import { error, json, type RequestHandler } from '@sveltejs/kit';
import { AuthError } from '#lib';
import { main, sessionReads } from '../../../auth.js';

interface Body {
	email?: string;
	password?: string;
	redirectTo?: string;
	provider?: string;
	providerAccountId?: string;
	limit?: number;
	cursor?: string;
	otherSignIn?: boolean;
}

/**
 * kitauth's server functions, one per `name`, called from a JSON POST. (`name` is read from the
 * URL: under the repository's tsconfig, route params are typed by the demo app's routes.)
 */
export const POST: RequestHandler = async (event) => {
	const { url, request, locals } = event;
	const body = (await request.json().catch(() => ({}))) as Body;
	const fields = { email: body.email, password: body.password, redirectTo: body.redirectTo };
	switch (url.pathname.split('/').at(-1)) {
		case 'sign-in':
			return json({ url: await main.signIn('credentials', { ...fields, redirect: false }) });
		case 'sign-in-redirect':
			await main.signIn('credentials', fields);
			return json({ redirected: false });
		case 'sign-in-throws':
			try {
				return json({ url: await main.signIn('credentials', { ...fields, redirect: false }) });
			} catch (caught) {
				if (caught instanceof AuthError) return json({ thrown: caught.name, type: caught.type }, { status: 401 });
				throw caught;
			}
		case 'sign-in-page':
			return json({ url: await main.signIn(undefined, { redirect: false, redirectTo: body.redirectTo }) });
		case 'sign-in-page-redirect':
			await main.signIn();
			return json({ redirected: false });
		case 'sign-out':
			return json({ url: await main.signOut({ redirect: false }) });
		case 'sign-out-redirect':
			await main.signOut({ redirectTo: `/base/after` });
			return json({ redirected: false });
		case 'sessions':
			return json({ sessions: await main.sessions.list(), reads: sessionReads(locals) });
		case 'access-token': {
			const token = await main.getAccessToken(body.provider ?? '');
			// A failed refresh shows on this request's session, the one locals.auth() returns.
			return json({ token, error: (await locals.auth())?.error ?? null });
		}
		case 'access-token-of-event': {
			// The older signature, still served (deprecated).
			const token = await main.getAccessToken(event, body.provider ?? '');
			return json({ token, error: (await locals.auth())?.error ?? null });
		}
		case 'session-page':
			return json(await main.sessions.page({ limit: body.limit, cursor: body.cursor }));
		case 'accounts':
			return json({ accounts: await main.accounts.list({ otherSignIn: body.otherSignIn }) });
		case 'unlink':
			return json(await main.accounts.unlink(body.provider ?? '', { providerAccountId: body.providerAccountId, otherSignIn: body.otherSignIn }));
		case 'revoke-others':
			return json({ revoked: await main.sessions.revokeOthers() });
		default:
			error(404, 'No such function');
	}
};
