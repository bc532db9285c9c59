import type { ActionFailure, RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { AuthServer, CurrentSession, PasskeyManager } from '../core/index.js';
import { applyCookies } from './cookies.js';
import { actionAnswer, submittedForm } from './form-answer.js';
import { type PasskeyActionData, type PasskeyFormScope, removePasskeyForm, renamePasskeyForm } from './passkey-forms.js';

export type { PasskeyInfo, PasskeyManager, PasskeyRemoval } from '../core/index.js';
export type { PasskeyActionData } from './passkey-forms.js';

/** `export const actions = { ...passkeys.actions() }`: rename and remove, as form actions. */
export interface PasskeyActions {
	renamePasskey: (event: RequestEvent) => Promise<PasskeyActionData | ActionFailure<PasskeyActionData>>;
	removePasskey: (event: RequestEvent) => Promise<PasskeyActionData | ActionFailure<PasskeyActionData>>;
}

export interface SvelteKitPasskeys extends PasskeyManager {
	/**
	 * Form actions for `<PasskeyList>`: `renamePasskey` (fields `id`, `name`) and `removePasskey`
	 * (field `id`; needs a sign-in within `maxAge` seconds, default 600).
	 */
	actions(options?: { maxAge?: number }): PasskeyActions;
}

/**
 * The signed-in user's passkeys, in the request being served (a `load` or form action): list,
 * rename, remove (which needs a recent sign-in and is refused for the last way to sign in).
 */
export function createPasskeys(
	current: (event: RequestEvent) => Promise<CurrentSession>,
	getServer: (event: RequestEvent) => Promise<AuthServer>
): SvelteKitPasskeys {
	const scope = async (event: RequestEvent = getRequestEvent()) => (await current(event)).passkeys;
	// The answers are shown to the user (PasskeyList): in the request's language.
	const formScope = async (event: RequestEvent): Promise<PasskeyFormScope> => ({
		passkeys: await scope(event),
		i18n: (await getServer(event)).i18n(event.request),
		cookies: event.cookies
	});
	return {
		list: async () => (await scope()).list(),
		rename: async (id, name) => (await scope()).rename(id, name),
		remove: async (id, options) => {
			const event = getRequestEvent();
			const result = await (await scope(event)).remove(id, options);
			if (result.removed) applyCookies(event.cookies, result.sessionsEnded?.cookies);
			return result;
		},
		actions: (options = {}) => ({
			renamePasskey: async (event) => actionAnswer(await renamePasskeyForm(await formScope(event), await submittedForm(event))),
			removePasskey: async (event) => actionAnswer(await removePasskeyForm(await formScope(event), await submittedForm(event), options.maxAge))
		})
	};
}
