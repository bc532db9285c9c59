import { dev } from '$app/env';
import { error } from '@sveltejs/kit';
import { outbox } from '../../../../demo/outbox.js';
import type { PageServerLoad } from './$types';

/** The demo's development outbox: the sign-in messages it kept instead of sending. Never in production. */
export const load: PageServerLoad = () => {
	if (!dev) error(404, 'Not found');
	return { messages: [...outbox()] };
};
