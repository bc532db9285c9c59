import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import { type AuthServer, type CurrentSession, type PasskeyManager, ReauthenticationRequired } from '../core/index.js';
import { applyCookies } from './cookies.js';

export type { PasskeyInfo, PasskeyManager, PasskeyRemoval } from '../core/index.js';

/** What the passkey form actions answer (the page's `form`), for `<PasskeyList form={form}>`. */
export type PasskeyActionData = {
	/** A short message for the user. */
	passkeyMessage: string;
	/** The action was refused (a `fail()`): the message is an error, not news. */
	failed?: true;
	/** Which action answered: `rename` or `remove`. */
	action?: 'rename' | 'remove';
	/** The passkey it was about: a refused name shows under that passkey's name field. */
	passkeyId?: string;
	/** The action needs a recent sign-in: show a re-authentication prompt, then retry. */
	reauthenticate?: boolean;
	/** A passkey was removed: tell the browser (`forgetPasskey`), so it stops offering it. */
	removed?: { rpId: string; credentialId: string };
};

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
	const i18n = async (event: RequestEvent) => (await getServer(event)).i18n(event.request);
	const field = async (event: RequestEvent, name: string) => {
		const value = (await event.request.formData().catch(() => new FormData())).get(name);
		return typeof value === 'string' ? value : '';
	};
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
			renamePasskey: async (event) => {
				const form = await event.request.formData().catch(() => new FormData());
				const [id, name] = [form.get('id'), form.get('name')];
				const { t } = await i18n(event);
				const refuse = (passkeyMessage: string, passkeyId?: string) =>
					fail(400, { passkeyMessage, failed: true as const, action: 'rename' as const, ...(passkeyId ? { passkeyId } : {}) });
				if (typeof id !== 'string' || typeof name !== 'string') return refuse(t('passkeys.answer.which'));
				if (!name.trim()) return refuse(t('passkeys.answer.nameMissing'), id);
				return (await (await scope(event)).rename(id, name))
					? { passkeyMessage: t('passkeys.answer.renamed'), action: 'rename' as const, passkeyId: id }
					: refuse(t('passkeys.answer.notRenamed'), id);
			},
			removePasskey: async (event) => {
				const id = await field(event, 'id');
				const { t } = await i18n(event);
				const refuse = (status: number, passkeyMessage: string, extra: { reauthenticate?: true } = {}) =>
					fail(status, { passkeyMessage, failed: true as const, action: 'remove' as const, passkeyId: id, ...extra });
				try {
					const result = await (await scope(event)).remove(id, options);
					if (result.removed) {
						applyCookies(event.cookies, result.sessionsEnded?.cookies);
						return {
							passkeyMessage: t('passkeys.answer.removed'),
							action: 'remove' as const,
							passkeyId: id,
							removed: { rpId: result.rpId, credentialId: result.passkey.id }
						};
					}
					return result.reason === 'not-found'
						? refuse(404, t('passkeys.answer.notFound'))
						: refuse(409, t('passkeys.answer.last'));
				} catch (error) {
					if (!(error instanceof ReauthenticationRequired)) throw error;
					return refuse(403, t('passkeys.answer.reauthenticate'), { reauthenticate: true });
				}
			}
		})
	};
}
