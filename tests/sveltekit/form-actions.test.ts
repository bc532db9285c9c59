/**
 * The `signIn` form action through kitauth's real SvelteKit integration, called in process with a
 * request event as SvelteKit builds one: a refused sign-in is the form's failure, keeping what the
 * provider's public view says a form keeps (an email form's address, credentials' non-secret
 * fields), never a password.
 */
import { isActionFailure } from '@sveltejs/kit';
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, test } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import Credentials from '../../src/lib/providers/credentials.js';
import Email from '../../src/lib/providers/email.js';
import { deploymentEnv, recording, requestEvent } from './kit-event.js';

const SECRET = 'sveltekit-actions-secret-0123456789abcdef0123';
const ORIGIN = 'http://app.example';

deploymentEnv();

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

async function app() {
	process.env.AUTH_TRUST_HOST = 'true';
	const db = createClient({ url: ':memory:' });
	closers.push(() => db.close());
	await migrate(db);
	const sent: string[] = [];
	const auth = SvelteKitAuth({
		secret: SECRET,
		adapter: LibSQLAdapter(db),
		logger: recording().logger,
		providers: [
			Email({ sendVerificationRequest: async ({ identifier }) => void sent.push(identifier) }),
			Credentials({
				credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
				authorize: () => null
			})
		],
		// Nobody from this domain may sign in.
		callbacks: { signIn: ({ user }) => !String(user.email ?? '').endsWith('@refused.example') }
	});
	return { ...auth, sent };
}

/** The signIn form action's answer to a form posted to /login. */
async function submit(signIn: Awaited<ReturnType<typeof app>>['signIn'], fields: Record<string, string>) {
	const event = requestEvent(`${ORIGIN}/login`, {
		method: 'POST',
		headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields)
	});
	return signIn(event).catch((error: unknown) => error);
}

describe('the signIn form action: a refusal keeps the non-secret fields', () => {
	test('an email sign-in the signIn callback refuses: 400 AccessDenied, the address kept, no email sent', async () => {
		const { signIn, sent } = await app();
		const result = await submit(signIn, { providerId: 'email', email: 'mallory@refused.example' });
		expect(isActionFailure(result)).toBe(true);
		expect(result).toMatchObject({
			status: 400,
			data: { failed: true, providerId: 'email', error: 'AccessDenied', values: { email: 'mallory@refused.example' } }
		});
		expect(sent).toEqual([]);
	});

	test('a credentials sign-in refused: the username kept, the password not', async () => {
		const { signIn } = await app();
		const result = await submit(signIn, { providerId: 'credentials', username: 'alice', password: 'hunter2' });
		expect(result).toMatchObject({ status: 400, data: { error: 'CredentialsSignin', values: { username: 'alice' } } });
		expect(JSON.stringify(result)).not.toContain('hunter2');
	});
});
