/**
 * A child process of the multi-process test: signs users in through LibSQLAdapter (createUser +
 * createSession + linkAccount) against one file, in several concurrent lanes, and prints what it
 * believes it wrote. Run with `node --import ./tests/support/ts-import-hook.ts <this> <json>`.
 *
 * `mode`: `owned` hands the adapter a configuration (it creates the client, busy timeout on every
 * connection); `foreign` hands it a client created WITHOUT a busy timeout, the worst case.
 */
import { createClient } from '@libsql/client';
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import type { AdapterUser } from '../../src/lib/core/types/models.js';

interface Job {
	url: string;
	mode: 'owned' | 'foreign';
	/** The adapter's busyTimeout; a tiny one makes busy errors (and their handling) frequent. */
	busyTimeout?: number;
	signIns: number;
	lanes: number;
	worker: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const options = { busyTimeout: job.busyTimeout ?? 5000 };
const adapter =
	job.mode === 'owned'
		? LibSQLAdapter({ url: job.url }, options)
		: LibSQLAdapter(createClient({ url: job.url }), options);

const ok = { user: 0, session: 0, account: 0 };
const errors: { operation: string; name: string; code: string; message: string }[] = [];

async function attempt(operation: keyof typeof ok, write: () => unknown): Promise<boolean> {
	try {
		await write();
		ok[operation]++;
		return true;
	} catch (error) {
		const { name, code, message } = error as { name: string; code?: string; message: string };
		errors.push({ operation, name, code: String(code), message });
		return false;
	}
}

async function lane(index: number): Promise<void> {
	for (let i = index; i < job.signIns; i += job.lanes) {
		const email = `w${job.worker}-${i}-${crypto.randomUUID()}@example.com`;
		let user: AdapterUser | undefined;
		const created = await attempt('user', async () => {
			user = await adapter.createUser({ email, emailVerified: null, name: `w${job.worker}` } as AdapterUser);
		});
		if (!created || !user) continue;
		const userId = user.id;
		const expires = new Date(Date.now() + 86_400_000);
		await attempt('session', () =>
			adapter.createSession({ sessionToken: crypto.randomUUID(), userId, expires })
		);
		await attempt('account', () =>
			adapter.linkAccount({ userId, type: 'oauth', provider: 'github', providerAccountId: crypto.randomUUID() })
		);
	}
}

await Promise.all(Array.from({ length: job.lanes }, (_, index) => lane(index)));
process.stdout.write(JSON.stringify({ ok, errors }));
process.exit(0);
