/**
 * One answer, two receivers: a passkey or two-factor form's step answers data with a status, or
 * where to go (sveltekit/form-answer.ts); a form action turns it into the page's `form` (`fail()`
 * on a refusal) or a redirect, a remote form into its `result` or a redirect (remote/answer.ts). A
 * component of several remote forms shows the last one's answer (components/remote-form.ts).
 */
import { isActionFailure, isRedirect } from '@sveltejs/kit';
import { describe, expect, test } from 'vitest';
import { lastResult, type RemoteAuthFormInstance } from '../../src/lib/components/remote-form.js';
import { remoteAnswer } from '../../src/lib/remote/answer.js';
import { actionAnswer } from '../../src/lib/sveltekit/form-answer.js';

const refusal = { passkeyMessage: 'Confirm it is you to remove a passkey.', failed: true, action: 'remove', passkeyId: 'p1', reauthenticate: true };
const news = { twoFactorMessage: 'Two-step verification is off.' };

/** What a function threw (kit's redirect is thrown). */
function thrown(run: () => unknown): unknown {
	try {
		run();
	} catch (error) {
		return error;
	}
	throw new Error('nothing thrown');
}

describe('actionAnswer: as a form action answers', () => {
	test('news is the page\'s form as it is', () => {
		expect(actionAnswer({ status: 200, data: news })).toEqual(news);
	});

	test('a refusal is fail(status, data): the 403 and reauthenticate of a removal without a recent sign-in', () => {
		const answered = actionAnswer({ status: 403, data: refusal });
		expect(isActionFailure(answered) && { status: answered.status, data: answered.data }).toEqual({ status: 403, data: refusal });
	});

	test('a location is a 303 redirect', () => {
		const error = thrown(() => actionAnswer({ location: 'http://localhost/account' }));
		expect(isRedirect(error) && { status: error.status, location: error.location }).toEqual({ status: 303, location: 'http://localhost/account' });
	});
});

describe('remoteAnswer: as a remote form answers', () => {
	test('news and refusals alike are its result, in the form actions\' shape', () => {
		expect(remoteAnswer({ status: 200, data: news })).toEqual(news);
		expect(remoteAnswer({ status: 403, data: refusal })).toEqual(refusal);
	});

	test('a location is a 303 redirect, as the action\'s', () => {
		const error = thrown(() => remoteAnswer({ location: 'http://localhost/two-factor/done' }));
		expect(isRedirect(error) && { status: error.status, location: error.location }).toEqual({ status: 303, location: 'http://localhost/two-factor/done' });
	});
});

describe('lastResult: the answer a component of several remote forms shows', () => {
	const instance = (result: { failed?: boolean } | undefined) => ({ result }) as RemoteAuthFormInstance<{ failed?: boolean }>;
	const renamed = instance({ failed: false });
	const refused = instance({ failed: true });

	test('the last submitted form\'s, even when another has an answer too', () => {
		expect(lastResult(renamed, [refused, renamed])).toBe(renamed.result);
		expect(lastResult(instance(undefined), [refused])).toBeNull();
	});

	test('before any submission in this page (rendered after a plain form\'s), the one that has an answer', () => {
		expect(lastResult(undefined, [instance(undefined), undefined, refused])).toBe(refused.result);
		expect(lastResult(undefined, [instance(undefined)])).toBeNull();
	});
});
