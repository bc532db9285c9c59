import { dev } from '$app/env';
import { error } from '@sveltejs/kit';
import { devOutbox } from '#lib';
import type { PageServerLoad } from './$types';

/** kitauth's development outbox in the demo's pages: the sign-in messages kept instead of sent. Never in production. */
export const load: PageServerLoad = () => {
	if (!dev) error(404, 'Not found');
	return { messages: [...devOutbox()] };
};
