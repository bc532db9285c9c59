import { redirect } from '@sveltejs/kit';
import { EXTERNAL, type FormAnswer } from '../sveltekit/form-answer.js';

/**
 * A remote form's answer: the data as its `result` (a refusal in the form actions' shape, with
 * `failed`), or the redirect (thrown). Without a redirect kit reloads the page's data and queries
 * after a successful submission, so what the form changed shows at once.
 */
export function remoteAnswer<Data>(answer: FormAnswer<Data>): Data {
	if ('location' in answer) redirect(303, answer.location, EXTERNAL);
	return answer.data;
}
