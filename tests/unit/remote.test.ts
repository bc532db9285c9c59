/**
 * The parts of kitauth/remote that need no request: remote form data as the form actions parse
 * it, the update data's Standard Schema, the role check and the guard's types. (The functions
 * themselves run in a built app: tests/sveltekit/kit-app-remote.test.ts.)
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { Session, User } from '../../src/lib/index.js';
import { formDataOf } from '../../src/lib/remote/form-data.js';
import { guard, hasRole, type SignedInSession } from '../../src/lib/remote/server.js';
import { sessionUpdateData } from '../../src/lib/remote/update-data.js';

describe('formDataOf: a remote form\'s data as the FormData the actions parse', () => {
	test('text fields and repeated text fields pass, in order', () => {
		const result = formDataOf({ providerId: 'credentials', email: 'a@example.com', scope: ['a', 'b'] });
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect([...result.form]).toEqual([
			['providerId', 'credentials'],
			['email', 'a@example.com'],
			['scope', 'a'],
			['scope', 'b']
		]);
	});

	test("kit's instance key `id` is dropped, unless the form really has such a field", () => {
		const dropped = formDataOf({ id: 'c1/credentials', email: 'a@example.com' });
		expect(dropped.ok && [...dropped.form.keys()]).toEqual(['email']);
		const kept = formDataOf({ id: 'employee-7' }, true);
		expect(kept.ok && [...kept.form]).toEqual([['id', 'employee-7']]);
	});

	test('numbers, booleans, files and nested objects (kit\'s typed and dotted names) are refused, named', () => {
		expect(formDataOf({ email: 'a@example.com', age: 5, remember: true, avatar: new File(['x'], 'x.png'), profile: { name: 'x' }, mixed: ['a', 1] })).toEqual({
			ok: false,
			failure: {
				failed: true,
				fieldErrors: {},
				formErrors: [
					'Field "age" must be text.',
					'Field "remember" must be text.',
					'Field "avatar" must be text.',
					'Field "profile" must be text.',
					'Field "mixed" must be text.'
				]
			}
		});
	});

	test('a long hostile field name is cut in the message', () => {
		const result = formDataOf({ ['x'.repeat(10_000)]: 1 });
		expect(result.ok || result.failure.formErrors[0]).toBe(`Field "${'x'.repeat(64)}" must be text.`);
	});
});

describe('sessionUpdateData: what updateSession accepts', () => {
	const validate = (value: unknown) => sessionUpdateData['~standard'].validate(value);

	test('plain JSON passes as it is', () => {
		const data = { nickname: 'Al', tags: ['a', 1, true, null], nested: { deeper: { n: 1.5 } } };
		expect(validate(data)).toEqual({ value: data });
		expect(validate(null)).toEqual({ value: null });
		expect(validate('text')).toEqual({ value: 'text' });
	});

	test('anything a JWT could not carry, too deep or too large, is an issue', () => {
		let deep: unknown = 1;
		for (let i = 0; i < 20; i++) deep = { deep };
		class Profile {
			name = 'x';
		}
		for (const value of [undefined, new Date(0), new Map(), new Set(), new Profile(), Number.NaN, Number.POSITIVE_INFINITY, 1n, () => 1, Symbol('x'), deep, { text: 'x'.repeat(70_000) }, [new Date(0)]]) {
			expect(validate(value)).toHaveProperty('issues');
		}
	});

	test('a Standard Schema kit accepts', () => {
		expect(sessionUpdateData['~standard']).toMatchObject({ version: 1, vendor: 'kitauth' });
	});
});

describe('guard', () => {
	const user = (role?: unknown): Session => ({ expires: '2030-01-01T00:00:00.000Z', user: { email: 'a@example.com', ...(role === undefined ? {} : { role }) } as User });

	test('roles: none asked allows anyone; a role or one of several, as a string or an array on the user', () => {
		expect(hasRole(user(), undefined)).toBe(true);
		expect(hasRole(user('admin'), 'admin')).toBe(true);
		expect(hasRole(user('member'), 'admin')).toBe(false);
		expect(hasRole(user('editor'), ['admin', 'editor'])).toBe(true);
		expect(hasRole(user(['member', 'admin']), 'admin')).toBe(true);
		expect(hasRole(user(), 'admin')).toBe(false);
		expect(hasRole(user({ admin: true }), 'admin')).toBe(false);
		expect(hasRole(user(['admin']), [])).toBe(false);
	});

	test('types: the handler gets a session with its user, then exactly the arguments kit passes', () => {
		const noArgs = guard(async (session) => {
			expectTypeOf(session).toEqualTypeOf<SignedInSession>();
			expectTypeOf(session.user).toEqualTypeOf<User>();
			return session.user.email;
		});
		expectTypeOf(noArgs).toEqualTypeOf<() => Promise<string | null | undefined>>();
		const withArg = guard(async (_session, id: string) => id.length, { allow: (_session, id) => id !== '' });
		expectTypeOf(withArg).toEqualTypeOf<(id: string) => Promise<number>>();
		// Given where kit wants `(arg: string) => …`, the argument's type comes from there.
		const contextual: (arg: string) => Promise<string> = guard(async (_session, arg) => {
			expectTypeOf(arg).toEqualTypeOf<string>();
			return arg;
		});
		expect(typeof contextual).toBe('function');
	});
});
