/**
 * The conformance suite against LibSQLAdapter: on a temporary file (raw reads through a separate
 * client, so every write is proven to have reached the file) and on `:memory:`.
 */
import { createClient } from '@libsql/client';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { runAdapterConformance } from './conformance.js';
import { rawReads, tempDatabase } from './support.js';

runAdapterConformance('LibSQLAdapter on a file', async () => {
	const database = tempDatabase();
	const client = createClient({ url: database.url });
	await migrate(client);
	const reader = createClient({ url: database.url });
	return {
		adapter: LibSQLAdapter(client),
		db: rawReads(reader),
		cleanup: () => {
			client.close();
			reader.close();
			database.remove();
		}
	};
});

runAdapterConformance('LibSQLAdapter on :memory:', async () => {
	const client = createClient({ url: ':memory:' });
	await migrate(client);
	return { adapter: LibSQLAdapter(client), db: rawReads(client), cleanup: () => client.close() };
});
