/**
 * A child process of the fault tests, run as an unprivileged user when the tests run as root (root
 * writes through a 0444 mode): on a read-only database file, reads and `migrate()` of an
 * up-to-date database work, and a write rejects. Prints what happened as JSON.
 */
import { createClient } from '@libsql/client';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import type { AdapterUser } from '../../src/lib/core/types/models.js';

const [url = '', userId = ''] = process.argv.slice(2);
const client = createClient({ url });
const adapter = LibSQLAdapter(client, { busyTimeout: 500 });

const settle = async (work: () => unknown) => {
	try {
		return { ok: true, value: await work() };
	} catch (error) {
		const { name, code, message } = error as { name: string; code?: string; message: string };
		return { ok: false, name, code, message };
	}
};

const result = {
	read: await settle(() => adapter.getUser(userId)),
	migrate: await settle(() => migrate(client)),
	write: await settle(() =>
		adapter.createUser({ email: `${crypto.randomUUID()}@example.com`, emailVerified: null } as AdapterUser)
	)
};
process.stdout.write(JSON.stringify(result));
process.exit(0);
