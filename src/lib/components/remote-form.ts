import { tick } from 'svelte';
import type { HTMLFormAttributes } from 'svelte/elements';
import { focusError } from './parts/enhance.js';
import type { FormFailure, RemoteFormBinding } from './parts/types.js';

/** What a remote form of kitauth's answers as its `result`: data the component shows, `failed` on a refusal. */
export interface RemoteFormResult {
	failed?: boolean;
}

/**
 * One instance of a SvelteKit remote form (`form()`, SvelteKit 3.2) whose `result` is what the
 * matching form action answers (a refusal in the form actions' shape), as the components use it.
 * Typed by what they use (kit's own type lives in `$app/server`, which SvelteKit 2 apps lack), so
 * kit's form objects fit as they are.
 */
export interface RemoteAuthFormInstance<Result extends RemoteFormResult = FormFailure> {
	enhance(
		callback: (form: { submit(): Promise<boolean>; readonly result: Result | undefined; readonly element: HTMLFormElement }) => void | Promise<void>
	): HTMLFormAttributes;
	readonly fields: { readonly [field: string]: { as(type: 'text'): { name: string } } };
	readonly result: Result | undefined;
	readonly pending: number;
}

/** Such a remote form: `kitauth/remote`'s `signIn` or `signOut`, or an app's own of that shape. */
export interface RemoteAuthForm<Result extends RemoteFormResult = FormFailure> extends RemoteAuthFormInstance<Result> {
	/** An instance of its own for one `<form>` (kit attaches an instance to a single form). */
	for(key: string): RemoteAuthFormInstance<Result>;
}

/**
 * Kit's form instance as the parts render it. Enhanced submissions do not reset the form (a
 * refusal keeps what was typed, as a form action's page would); after a refusal the password
 * fields are cleared and focus moves to what the refusal is about. `submitted` hears of each
 * submission once it is answered (a component of several forms shows the last one's answer).
 */
export function bindRemote<Result extends RemoteFormResult>(instance: RemoteAuthFormInstance<Result>, submitted?: () => void): RemoteFormBinding {
	const attributes = instance.enhance(async (form) => {
		await form.submit();
		submitted?.();
		if (!form.result?.failed) return;
		for (const input of form.element.querySelectorAll<HTMLInputElement>('input[type="password"]')) input.value = '';
		await tick();
		focusError(form.element);
	});
	return {
		attributes,
		name: (field) => instance.fields[field]!.as('text').name,
		get pending() {
			return instance.pending > 0;
		}
	};
}

/**
 * The answer a component of several remote forms shows: the last submitted one's (with
 * JavaScript), else the one any of them has (a page rendered after a plain form's submission).
 */
export function lastResult<Result extends RemoteFormResult>(
	last: RemoteAuthFormInstance<Result> | undefined,
	instances: Iterable<RemoteAuthFormInstance<Result> | undefined>
): Result | null {
	if (last) return last.result ?? null;
	for (const instance of instances) if (instance?.result) return instance.result;
	return null;
}
