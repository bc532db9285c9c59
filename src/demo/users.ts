import type { Adapter } from '#lib';
import { scryptHasher } from '#lib/providers/password.js';

/** The demo's ready-made password account (shown on its sign-in page). */
export const DEMO_USER = { id: 'demo-user', email: 'demo@example.com', name: 'Demo User' } as const;
const DEMO_PASSWORD = 'demo-password';

/**
 * Creates the demo user at start-up, through `Password()`'s own storage (the adapter's
 * `createPasswordUser`, with the provider's default hasher), unless the address has an account.
 */
export async function seedDemoUser(adapter: Adapter): Promise<void> {
	if (!adapter.getPasswordUser || !adapter.createPasswordUser) throw new TypeError('The demo needs an adapter that stores passwords');
	if (await adapter.getPasswordUser(DEMO_USER.email)) return;
	const hash = await scryptHasher().hash(DEMO_PASSWORD);
	const created = await adapter.createPasswordUser({ ...DEMO_USER, emailVerified: new Date() }, hash);
	if (!created) console.warn(`[demo] ${DEMO_USER.email} has an account without a password: the demo password will not work`);
}
