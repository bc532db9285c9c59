/**
 * The props the components share. Nothing here comes from SvelteKit: the built-in pages render the
 * same components in plain Node, and an app passes SvelteKit's `enhance` in through the wrappers.
 */
import type { HTMLFormAttributes } from 'svelte/elements';
import type { Theme } from '../../shared/theme.js';

export type { Theme };

/**
 * What a form action answered on failure, as the components show it: the spec's
 * `{failed, fieldErrors, formErrors}` plus kitauth's extras. kitauth's `signIn`/`signOut` actions
 * (`AuthActionFailure`) fit, and so does an app's own `fail(400, {…})` of the same shape.
 */
export interface FormFailure {
	failed?: boolean;
	/** Messages by field name: shown under that field (and linked to it), or with the form when it has no such field. */
	fieldErrors?: Record<string, readonly string[] | undefined>;
	/** Messages about the whole form. */
	formErrors?: readonly string[];
	/** The error type when a provider refused (e.g. `CredentialsSignin`). */
	error?: string;
	code?: string;
	/** Submitted values worth showing again (never passwords). */
	values?: Record<string, string>;
	/** The provider whose form was submitted, so the failure shows on that form. */
	providerId?: string;
	/** Identifier-first's step-1 answer (not a failure): show step 2 for `email`. */
	step?: 'method';
	email?: string;
}

/**
 * SvelteKit's `enhance` from `$app/forms`, as the components use it (typed structurally, so kit 2
 * and kit 3 both fit and the components need no SvelteKit import).
 */
export type Enhance = (form: HTMLFormElement, submit: EnhanceSubmit) => { destroy(): void };

export type EnhanceSubmit = (input: {
	formElement: HTMLFormElement;
	formData: FormData;
	submitter: HTMLElement | null;
	cancel(): void;
}) => void | ((result: {
	formElement: HTMLFormElement;
	result: { type: string };
	update(options?: { reset?: boolean }): Promise<void>;
}) => Promise<void>);

/** Where one form posts, and the hidden fields it carries. */
export interface FormTarget {
	action: string;
	/** Hidden fields (e.g. `csrfToken` and `callbackUrl` on the built-in pages). */
	fields?: Record<string, string>;
	/** A remote form of SvelteKit's (`kitauth/remote`) instead of a form action: `action` is then unused. */
	remote?: RemoteFormBinding;
}

/**
 * One instance of a SvelteKit remote form (`form()`, SvelteKit 3.2), as the components render it:
 * typed by what they use, so the parts need no SvelteKit import (the `kitauth/components`
 * wrappers make it from kit's form object).
 */
export interface RemoteFormBinding {
	/** Spread onto the `<form>`: its `method` and `action`, and kit's attachment that enhances it. */
	readonly attributes: HTMLFormAttributes;
	/** The name kit gives the input of a field (`field.as(…)`): kit refuses inputs it did not name. */
	name(field: string): string;
	/** A submission is under way. */
	readonly pending: boolean;
}

/** Heading levels the components accept for their title. */
export type HeadingLevel = 1 | 2 | 3 | 4;

/**
 * What the passkey form actions answered (`passkeys.actions()`' `PasskeyActionData`), as
 * `PasskeyList` shows it: a message (news, or an error when `failed`), the re-authentication
 * prompt, and the removed passkey the browser may be told about.
 */
export interface PasskeyAnswer {
	passkeyMessage?: string;
	failed?: boolean;
	action?: 'rename' | 'remove';
	/** The passkey the answer is about. */
	passkeyId?: string;
	/** The action needs a recent sign-in. */
	reauthenticate?: boolean;
	removed?: { rpId: string; credentialId: string };
}

/**
 * What the two-factor form actions answered (`twoFactor.actions()`' `TwoFactorActionData`), as
 * the two-factor components show it: a refusal, news (`twoFactorMessage`), new `backupCodes`.
 */
export interface TwoFactorAnswer extends FormFailure {
	twoFactorMessage?: string;
	backupCodes?: readonly string[];
	continueUrl?: string;
	reauthenticate?: boolean;
	expired?: boolean;
}
