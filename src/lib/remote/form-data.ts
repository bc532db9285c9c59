import type { AuthActionFailure } from '../sveltekit/types.js';

/** What kit hands a remote form: its fields by name, as `field.as(…)` named them. */
export type RemoteFormData = Readonly<Record<string, unknown>>;

/**
 * A remote form's data as the `FormData` the form actions parse, so both are validated by the
 * same code. Only text survives: the components name every input with `field.as('text')` or
 * `as('hidden', …)`; kit's typed names (`n:`, `b:`, nested paths, files) are refused, as a form
 * action refuses a file. `id` is kit's key of a form instance (`form.for(key)`), dropped unless
 * the form really has a field of that name (`keepId`).
 */
export function formDataOf(data: RemoteFormData, keepId = false): { ok: true; form: FormData } | { ok: false; failure: AuthActionFailure } {
	const form = new FormData();
	const formErrors: string[] = [];
	for (const [name, value] of Object.entries(data)) {
		if (name === 'id' && !keepId) continue;
		const values = Array.isArray(value) ? value : [value];
		if (values.every((item) => typeof item === 'string')) for (const item of values) form.append(name, item);
		else formErrors.push(`Field "${name.slice(0, 64)}" must be text.`);
	}
	return formErrors.length ? { ok: false, failure: { failed: true, fieldErrors: {}, formErrors } } : { ok: true, form };
}
