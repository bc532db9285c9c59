import { type EmailMethods, isStepTwo } from '../../shared/identifier-first.js';
import type { ClientProvider } from '../../shared/provider.js';
import type { FormFailure } from './types.js';

/** Field names a provider's sign-in form shows (the rest of a failure's field errors go to its message). */
export function visibleFields(provider: ClientProvider): string[] {
	if (provider.type === 'email') return ['email'];
	if (provider.type === 'credentials') return Object.keys(provider.credentials ?? {});
	return [];
}

/** A failure's messages for its form's message: the form's own, then those of fields it does not show. */
export function messagesOf(failure: FormFailure, except: readonly string[] = []): string[] {
	const fields = Object.entries(failure.fieldErrors ?? {})
		.filter(([name]) => !except.includes(name))
		.flatMap(([, messages]) => messages ?? []);
	return [...(failure.formErrors ?? []), ...fields];
}

/**
 * Identifier-first's address, for which step 2 is shown: the step-1 answer's, or the address a
 * step-2 method's refusal kept (`failed` is the provider refused); `null` shows step 1.
 */
export function stepTwoAddress(methods: EmailMethods | null, form: FormFailure | null, failed: ClientProvider | undefined): string | null {
	if (!methods || !form) return null;
	if (form.step === 'method' && typeof form.email === 'string') return form.email;
	return failed && isStepTwo(methods, failed.id) ? (form.values?.email ?? null) : null;
}
