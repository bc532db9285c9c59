/**
 * Shared set-up for the two-factor suites: a real configuration (the password provider and
 * Passkey) with `twoFactor` on, over a real `LibSQLAdapter` on `:memory:` (either session
 * strategy), the real `Auth()`, and helpers that play the user: set TOTP up with a code computed
 * from the secret the set-up shows, then sign in through the challenge.
 */
import { expect } from 'vitest';
import type { AuthConfig, TwoFactorConfig } from '../../src/lib/core/types.js';
import type { TestClient } from '../support/client.js';
import { totpCode } from '../support/totp.js';
import { ALICE_LOGIN, expectNoSessionGranted, location } from './fixtures.js';
import { passkeySetup, type PasskeySetup, type Strategy } from './passkey-fixtures.js';

export const PENDING_COOKIE = 'authjs.two-factor';
export const DEVICE_COOKIE = 'authjs.two-factor-device';

export interface TwoFactorWorld extends PasskeySetup {
	events: { name: string; message: unknown }[];
}

export async function twoFactorWorld(strategy: Strategy, twoFactor: TwoFactorConfig = {}, overrides: Partial<AuthConfig> = {}): Promise<TwoFactorWorld> {
	const events: { name: string; message: unknown }[] = [];
	const record = (name: string) => (message: unknown) => void events.push({ name, message });
	const world = await passkeySetup(strategy, {
		twoFactor,
		events: {
			twoFactorEnabled: record('twoFactorEnabled'),
			twoFactorDisabled: record('twoFactorDisabled'),
			backupCodeUsed: record('backupCodeUsed'),
			signIn: record('signIn')
		},
		...overrides
	});
	return { ...world, events };
}

/** The password step: answers the challenge redirect with a pending cookie and no session. */
export async function passwordStep(client: TestClient, callbackUrl = `${client.origin}/account`): Promise<Response> {
	const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl });
	expect(res.status).toBe(302);
	return res;
}

/** Signs Alice in with her password where no second factor is asked for; the client holds the session. */
export async function signedInWithPassword(world: TwoFactorWorld): Promise<TestClient> {
	const client = world.client();
	const res = await passwordStep(client);
	expect(location(res).pathname).toBe('/account');
	return client;
}

/** Sets TOTP up through the REST actions, as a user with an app would: the secret and the codes. */
export async function enableTotp(client: TestClient): Promise<{ secret: string; backupCodes: string[] }> {
	const setup = await client.postForm('two-factor-setup');
	expect(setup.status).toBe(200);
	const { secret } = (await setup.json()) as { secret: string };
	const enable = await client.postForm('two-factor-enable', { code: totpCode(secret) });
	expect(enable.status).toBe(200);
	const { backupCodes } = (await enable.json()) as { backupCodes: string[] };
	return { secret, backupCodes };
}

/** Posts a code to the challenge. */
export function challenge(client: TestClient, code: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Response> {
	return client.postForm('two-factor', { code, ...extra }, { headers });
}

/** A first factor that must stop at the challenge: no session, a pending cookie, a redirect to it. */
export async function expectChallenge(res: Response, client: TestClient): Promise<void> {
	const to = res.status === 200 && (res.headers.get('content-type') ?? '').includes('json') ? new URL(((await res.clone().json()) as { url: string }).url) : location(res);
	expect(to.pathname).toBe('/auth/two-factor');
	await expectNoSessionGranted(res);
	expect(client.cookie(PENDING_COOKIE)).toBeTruthy();
	expect(await client.session()).toBeNull();
}

/** A 6-digit code that is none of the steps the challenge accepts now. */
export function wrongCode(secret: string): string {
	const valid = new Set([-1, 0, 1].map((offset) => totpCode(secret, offset)));
	for (let n = 0; ; n++) {
		const code = String(n).padStart(6, '0');
		if (!valid.has(code)) return code;
	}
}
