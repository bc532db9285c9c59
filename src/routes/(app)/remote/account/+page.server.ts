import { redirect } from '@sveltejs/kit';
import { passkeys, twoFactor } from '../../../../demo/auth.js';
import type { PageServerLoad } from './$types';

// The account's passkeys and two-step verification, managed through kitauth/remote's forms (the
// page reloads this after each of them).
export const load: PageServerLoad = async ({ locals }) => {
	const session = await locals.auth();
	if (!session?.user) redirect(303, '/remote');
	const status = await twoFactor.status();
	return {
		email: session.user.email,
		passkeys: await passkeys.list(),
		status,
		setup: status.enabled ? null : ((await twoFactor.setup()) ?? null),
		factors: session.factors ?? []
	};
};
