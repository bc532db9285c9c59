/**
 * Identifier-first through the `signIn` form action (kitauth's real SvelteKit integration, called
 * in process with a request event as SvelteKit builds one): an address without a provider is
 * step 1, answered with step 2 as data (`{ step: 'method', email }`, not a failure), the same for a
 * registered and an unknown address; a bad address is a 400 with the message under the field;
 * nothing is sent or signed in. (The form action's CSRF protection is SvelteKit's origin check,
 * before the action runs; the built-in page's token is tested in the integration suite.)
 */
import { isActionFailure } from '@sveltejs/kit';
import { createClient } from '@libsql/client';
import { afterEach, expect, test } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import Credentials from '../../src/lib/providers/credentials.js';
import Email from '../../src/lib/providers/email.js';
import Password from '../../src/lib/providers/password.js';
import { deploymentEnv, recording, requestEvent } from './kit-event.js';

const SECRET = 'sveltekit-identifier-secret-0123456789abcdef0';
const ORIGIN = 'http://app.example';

deploymentEnv();

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

async function app(multi = true) {
	process.env.AUTH_TRUST_HOST = 'true';
	const db = createClient({ url: ':memory:' });
	closers.push(() => db.close());
	await migrate(db);
	const sent: string[] = [];
	const adapter = LibSQLAdapter(db);
	const password = Password({ hasher: scryptHasher({ N: 2 ** 10, r: 8, p: 1 }) });
	const email = Email({ sendVerificationRequest: async ({ identifier }) => void sent.push(identifier) });
	const other = Credentials({ credentials: { username: { label: 'Username' } }, authorize: () => null });
	const auth = SvelteKitAuth({ secret: SECRET, adapter, logger: recording().logger, providers: multi ? [password, email] : [email, other] });
	// A registered address, for the known/unknown comparison.
	await adapter.createUser?.({ id: 'u1', email: 'known@example.com', emailVerified: null, name: 'Known' });
	return { ...auth, sent };
}

async function submit(signIn: Awaited<ReturnType<typeof app>>['signIn'], body: URLSearchParams | FormData) {
	const event = requestEvent(`${ORIGIN}/login?/signIn`, { method: 'POST', headers: { origin: ORIGIN }, body });
	return signIn(event).catch((error: unknown) => error);
}

test('an address and no provider: step 2 as data, the same for a registered and an unknown address, nothing sent', async () => {
	const { signIn, sent } = await app();
	const known = await submit(signIn, new URLSearchParams({ email: ' known@example.com ', redirectTo: '/account' }));
	const unknown = await submit(signIn, new URLSearchParams({ email: 'nobody@example.com', redirectTo: '/account' }));
	expect(isActionFailure(known)).toBe(false);
	expect(known).toEqual({ step: 'method', email: 'known@example.com' });
	expect(unknown).toEqual({ step: 'method', email: 'nobody@example.com' });
	expect(sent).toEqual([]);
});

test.each([
	['not an address', new URLSearchParams({ email: 'nope' })],
	['markup', new URLSearchParams({ email: '"><script>x</script>@a' })],
	['two addresses', new URLSearchParams([['email', 'a@example.com'], ['email', 'b@example.com']])],
	['too long', new URLSearchParams({ email: `${'a'.repeat(10_000)}@example.com` })]
])('%s: a 400 with the message under the email field, never a 500', async (_name, body) => {
	const { signIn, sent } = await app();
	const result = await submit(signIn, body);
	expect(isActionFailure(result)).toBe(true);
	expect(result).toMatchObject({ status: 400, data: { failed: true, fieldErrors: { email: ['Enter one email address, such as name@example.com.'] } } });
	expect(JSON.stringify(result).length).toBeLessThan(1000);
	expect(sent).toEqual([]);
});

test('a file as the address: a 400, never a 500', async () => {
	const { signIn } = await app();
	const form = new FormData();
	form.append('email', new Blob(['a@example.com']), 'a.txt');
	const result = await submit(signIn, form);
	expect(result).toMatchObject({ status: 400, data: { failed: true } });
});

test('without methods sharing an address, an address with no provider is not a step (as before)', async () => {
	const { signIn } = await app(false);
	const result = await submit(signIn, new URLSearchParams({ email: 'known@example.com' }));
	expect(result).not.toEqual({ step: 'method', email: 'known@example.com' });
});
