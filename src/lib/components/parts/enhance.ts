import { tick } from 'svelte';
import type { Enhance } from './types.js';

/** What a component does around an enhanced submission. */
export interface SubmitHooks {
	/** The submission starts (show the loading state). */
	start(form: HTMLFormElement): void;
	/** It is over, whatever the result (clear the loading state). */
	end(form: HTMLFormElement): void;
	/** Keep the form's values after a success that stays on the page (default: reset, as a page load would). */
	keepValues?: boolean;
}

/**
 * A Svelte action that enhances a form with `enhance` (SvelteKit's, from `$app/forms`) when there
 * is one, and does nothing otherwise: the form then posts as plain HTML, as on the built-in pages.
 * While a submission runs, another submit of the same form is ignored. After a refusal, password
 * fields are cleared (as the page load without JavaScript would) and focus moves to the first
 * field in error, or else to the form's message.
 */
export function enhanceWith(enhance: Enhance | undefined, hooks: SubmitHooks) {
	return (form: HTMLFormElement) => {
		if (!enhance) return;
		let busy = false;
		return enhance(form, ({ cancel }) => {
			if (busy) return cancel();
			busy = true;
			hooks.start(form);
			return async ({ result, update }) => {
				try {
					await update({ reset: !hooks.keepValues && result.type === 'success' });
				} finally {
					busy = false;
					hooks.end(form);
				}
				if (result.type !== 'failure') return;
				for (const input of form.querySelectorAll<HTMLInputElement>('input[type="password"]')) input.value = '';
				await tick();
				focusError(form);
			};
		});
	};
}

/**
 * Moves focus to what a refusal is about: the form's first field marked invalid, else the nearest
 * error message (the form's own, then its component's). Messages carry `data-kitauth-error` and
 * `tabindex="-1"`.
 */
export function focusError(form: HTMLFormElement): void {
	const target =
		form.querySelector<HTMLElement>('[aria-invalid="true"]') ??
		form.querySelector<HTMLElement>('[data-kitauth-error]') ??
		form.closest('[data-kitauth]')?.querySelector<HTMLElement>('[data-kitauth-error]');
	target?.focus();
}
