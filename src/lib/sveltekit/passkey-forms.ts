import type { Cookies } from '@sveltejs/kit';
import { type PasskeyManager, ReauthenticationRequired } from '../core/index.js';
import type { Translator } from '../i18n/index.js';
import { applyCookies } from './cookies.js';
import type { FormAnswer } from './form-answer.js';

/** What the passkey forms answer (the page's `form`, or a remote form's `result`), for `<PasskeyList>`. */
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

/** What a passkey form works on: the signed-in user's passkeys, answered in the request's language. */
export interface PasskeyFormScope {
	passkeys: PasskeyManager;
	i18n: Translator;
	/** The request's cookies: a removal that ends other sessions may end this one's too. */
	cookies: Cookies;
}

const text = (form: FormData, name: string) => {
	const value = form.get(name);
	return typeof value === 'string' ? value : undefined;
};

/** Renames a passkey (fields `id`, `name`). */
export async function renamePasskeyForm({ passkeys, i18n: { t } }: PasskeyFormScope, form: FormData): Promise<FormAnswer<PasskeyActionData>> {
	const [id, name] = [text(form, 'id'), text(form, 'name')];
	const refuse = (passkeyMessage: string, passkeyId?: string) => ({
		status: 400,
		data: { passkeyMessage, failed: true as const, action: 'rename' as const, ...(passkeyId ? { passkeyId } : {}) }
	});
	if (id === undefined || name === undefined) return refuse(t('passkeys.answer.which'));
	if (!name.trim()) return refuse(t('passkeys.answer.nameMissing'), id);
	return (await passkeys.rename(id, name))
		? { status: 200, data: { passkeyMessage: t('passkeys.answer.renamed'), action: 'rename', passkeyId: id } }
		: refuse(t('passkeys.answer.notRenamed'), id);
}

/**
 * Removes a passkey (field `id`): 403 with `reauthenticate` unless the user signed in within
 * `maxAge` seconds, 404 when it is not theirs, 409 when it is their last way to sign in.
 */
export async function removePasskeyForm({ passkeys, i18n: { t }, cookies }: PasskeyFormScope, form: FormData, maxAge?: number): Promise<FormAnswer<PasskeyActionData>> {
	const id = text(form, 'id') ?? '';
	const refuse = (status: number, passkeyMessage: string, extra: { reauthenticate?: true } = {}) => ({
		status,
		data: { passkeyMessage, failed: true as const, action: 'remove' as const, passkeyId: id, ...extra }
	});
	try {
		const result = await passkeys.remove(id, { maxAge });
		if (!result.removed) return result.reason === 'not-found' ? refuse(404, t('passkeys.answer.notFound')) : refuse(409, t('passkeys.answer.last'));
		applyCookies(cookies, result.sessionsEnded?.cookies);
		return {
			status: 200,
			data: { passkeyMessage: t('passkeys.answer.removed'), action: 'remove', passkeyId: id, removed: { rpId: result.rpId, credentialId: result.passkey.id } }
		};
	} catch (error) {
		if (!(error instanceof ReauthenticationRequired)) throw error;
		return refuse(403, t('passkeys.answer.reauthenticate'), { reauthenticate: true });
	}
}
