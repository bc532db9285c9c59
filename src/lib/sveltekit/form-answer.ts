import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';

/**
 * What a submitted passkey or two-factor form comes to, whoever received it: the data to show with
 * its status (200, or a refusal's), or where to go next (its cookies already set on the event).
 * The form actions (`passkeys.actions()`, `twoFactor.actions()`) and kitauth's remote forms
 * (`kitauth/remote`) both answer from it, each in its own way.
 */
export type FormAnswer<Data> = { status: number; data: Data } | { location: string };

/** Locations come from the core, already validated (same-site callback URLs). */
export const EXTERNAL = { external: true } as const;

/** A form action's answer: the data, a refusal as `fail(status, data)`, or the redirect (thrown). */
export function actionAnswer<Data extends Record<string, unknown>>(answer: FormAnswer<Data>): Data | ActionFailure<Data> {
	if ('location' in answer) redirect(303, answer.location, EXTERNAL);
	return answer.status < 400 ? answer.data : fail(answer.status, answer.data);
}

/** A form action's submitted fields (none when the body is not a form: each field is then missing). */
export function submittedForm(event: RequestEvent): Promise<FormData> {
	return event.request.formData().catch(() => new FormData());
}
