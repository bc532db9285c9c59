import { redirect } from '@sveltejs/kit';
import {
	galleryAccounts,
	galleryCredentials,
	galleryIdentifierFirst,
	galleryLastAccount,
	galleryOAuth,
	galleryPasskeyFields,
	galleryPasskeys,
	galleryProviders,
	gallerySessions,
	galleryTotp
} from '../../../demo/gallery.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => ({
	providers: galleryProviders,
	oauth: galleryOAuth,
	credentials: galleryCredentials,
	identifierFirst: galleryIdentifierFirst,
	sessions: gallerySessions,
	accounts: galleryAccounts,
	lastAccount: galleryLastAccount,
	passkeyFields: galleryPasskeyFields,
	passkeys: galleryPasskeys,
	totp: galleryTotp
});

/** Every form of the gallery posts here: nothing happens, the gallery comes back. */
export const actions: Actions = {
	preview: () => redirect(303, '/components')
};
