/**
 * The adapter conformance suite: any adapter can run it.
 *
 * ```ts
 * runAdapterConformance('MyAdapter', async () => ({ adapter, db: rawReads, cleanup }));
 * ```
 *
 * It covers every method of the Adapter interface and kitauth's extensions, everything the
 * Auth.js reference suite checks (in spirit), and what that suite leaves out: a right email with a
 * wrong verification token, expired tokens, concurrent single use, concurrent session updates,
 * the deleteUser cascade, millisecond-exact dates, the WebAuthn methods, and kitauth's counters
 * and session cutoffs. It depends on vitest only.
 *
 * Decisions it pins down:
 * - `useVerificationToken` may return an expired token (the core checks `expires`, as Auth.js's
 *   does) but must delete it, and must never report a different `expires` than stored.
 * - Session and verification tokens arrive hashed and are stored exactly as given.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { Adapter } from '../../src/lib/core/types/adapter.js';
import type { ConformanceTarget, Target } from './conformance/fixtures.js';
import { sessionTests } from './conformance/sessions.js';
import { extensionTests } from './conformance/extensions.js';
import { passwordTests } from './conformance/passwords.js';
import { tokenTests } from './conformance/tokens.js';
import { sessionFactorTests, twoFactorTests } from './conformance/two-factor.js';
import { userTests } from './conformance/users.js';
import { webauthnTests } from './conformance/webauthn.js';

export type { ConformanceDb, ConformanceTarget } from './conformance/fixtures.js';

export function runAdapterConformance(
	name: string,
	setup: () => ConformanceTarget | Promise<ConformanceTarget>
): void {
	describe(`adapter conformance: ${name}`, () => {
		let current: ConformanceTarget | undefined;
		beforeAll(async () => {
			current = await setup();
		});
		afterAll(async () => {
			await current?.cleanup?.();
		});
		const target = (): Target => {
			if (!current) throw new Error('The conformance setup did not run');
			// Every test calls methods through this; a missing one fails the "every method" test.
			return { adapter: current.adapter as Required<Adapter>, db: current.db };
		};
		describe('users and accounts', () => userTests(target));
		describe('database sessions', () => sessionTests(target));
		describe('verification tokens', () => tokenTests(target));
		describe('WebAuthn authenticators', () => webauthnTests(target));
		describe('counters and session cutoffs', () => extensionTests(name, target));
		describe('password accounts', () => passwordTests(target));
		describe('two-factor records', () => {
			twoFactorTests(target);
			sessionFactorTests(target);
		});
	});
}
