/**
 * The catalogue is typed: TypeScript knows every key, each key's parameters, and which keys are
 * plural. These assertions are checked by `npm run check` (svelte-check over tests/); the runtime
 * assertions hold what the types promise.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import { type Catalogue, defineMessages, type LocaleMessages, type Messages, type Params, translator } from '../../../src/lib/i18n/index.js';

describe('typed messages', () => {
	test("an app's overrides and locales: known keys only, plural messages as plural messages", () => {
		expectTypeOf<{ en: { 'signIn.heading': string } }>().toExtend<LocaleMessages>();
		expectTypeOf<{ nl: { 'sessions.others': { one: string; other: string } } }>().toExtend<LocaleMessages>();
		// A misspelt key is no message (TypeScript's weak-type check), nor is a plain text for a plural one.
		expectTypeOf<{ 'signIn.headin': string }>().not.toExtend<Messages>();
		expectTypeOf<{ 'sessions.others': string }>().not.toExtend<Messages>();
		// A whole catalogue (a locale of the app's own) has every key.
		expectTypeOf<{ 'signIn.heading': string }>().not.toExtend<Catalogue>();
		const messages = defineMessages({ en: { 'signIn.heading': 'Welcome back' } });
		expect(translator('en', messages).t('signIn.heading')).toBe('Welcome back');
	});

	test("a key's parameters come from its English text; plural messages take a count", () => {
		expectTypeOf<Params<'signIn.withProvider'>>().toEqualTypeOf<{ provider: string | number }>();
		expectTypeOf<Params<'sessions.others'>>().toEqualTypeOf<{ count: number }>();
		expectTypeOf<Params<'verify.codeWrong'>>().toEqualTypeOf<{ count: number }>();
		expectTypeOf<Params<'signIn.heading'>>().toEqualTypeOf<{}>();
		const t = translator('en').t;
		expectTypeOf(t('signIn.heading')).toBeString();
		expect(t('signIn.withProvider', { provider: 'GitHub' })).toBe('Sign in with GitHub');
	});
});
