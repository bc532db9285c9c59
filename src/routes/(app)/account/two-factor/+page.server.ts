import { redirect } from '@sveltejs/kit';
import { reauthenticateAge, twoFactor } from '../../../../demo/auth.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const session = await locals.auth();
	if (!session?.user) redirect(303, `/signin?redirectTo=${encodeURIComponent(url.pathname)}`);
	const status = await twoFactor.status();
	// While it is off, the secret being set up: the same one on every visit until a code turns it on.
	return { status, setup: status.enabled ? null : ((await twoFactor.setup()) ?? null), factors: session.factors ?? [] };
};

const { verifyTwoFactor: _signInOnly, ...manage } = twoFactor.actions({ maxAge: reauthenticateAge });

// Turn on, turn off, new backup codes, forget remembered browsers (signed out: kitauth answers 403).
export const actions: Actions = manage;
