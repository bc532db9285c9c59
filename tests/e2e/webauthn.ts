import type { CDPSession, Page } from '@playwright/test';

/** A credential of Chromium's virtual authenticator (CDP `WebAuthn.getCredentials`). */
export interface VirtualCredential {
	credentialId: string;
	isResidentCredential: boolean;
	rpId?: string;
	privateKey: string;
	userHandle?: string;
	signCount: number;
}

/** A platform authenticator that verifies its user and answers at once (no UI). */
export async function addAuthenticator(cdp: CDPSession): Promise<string> {
	const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
		options: {
			protocol: 'ctap2',
			ctap2Version: 'ctap2_1',
			transport: 'internal',
			hasResidentKey: true,
			hasUserVerification: true,
			isUserVerified: true,
			automaticPresenceSimulation: true
		}
	});
	return authenticatorId;
}

export async function credentials(cdp: CDPSession, authenticatorId: string): Promise<VirtualCredential[]> {
	return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as VirtualCredential[];
}

/** Client-side controls work only once Svelte has hydrated the page. */
export async function hydrated(page: Page): Promise<void> {
	await page.locator('html[data-hydrated="true"]').waitFor();
}
