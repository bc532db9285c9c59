import { tick } from 'svelte';
import type { HTMLFormAttributes } from 'svelte/elements';
import { focusError } from './parts/enhance.js';
import type { FormFailure, RemoteFormBinding } from './parts/types.js';

/**
 * One instance of a SvelteKit remote form (`form()`, SvelteKit 3.2) whose `result` is a refusal
 * in the form actions' shape, as the components use it. Typed by what they use (kit's own type
 * lives in `$app/server`, which SvelteKit 2 apps lack), so kit's form objects fit as they are.
 */
export interface RemoteAuthFormInstance {
	enhance(
		callback: (form: { submit(): Promise<boolean>; readonly result: FormFailure | undefined; readonly element: HTMLFormElement }) => void | Promise<void>
	): HTMLFormAttributes;
	readonly fields: { readonly [field: string]: { as(type: 'text'): { name: string } } };
	readonly result: FormFailure | undefined;
	readonly pending: number;
}

/** Such a remote form: `kitauth/remote`'s `signIn` or `signOut`, or an app's own of that shape. */
export interface RemoteAuthForm extends RemoteAuthFormInstance {
	/** An instance of its own for one `<form>` (kit attaches an instance to a single form). */
	for(key: string): RemoteAuthFormInstance;
}

/**
 * Kit's form instance as the parts render it. Enhanced submissions do not reset the form (a
 * refusal keeps what was typed, as a form action's page would); after a refusal the password
 * fields are cleared and focus moves to what the refusal is about.
 */
export function bindRemote(instance: RemoteAuthFormInstance): RemoteFormBinding {
	const attributes = instance.enhance(async (form) => {
		await form.submit();
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
