/**
 * The app of the engines' scale-out tests (`engine-scenarios.ts`), whatever the engine: database
 * sessions in the given adapter, whose counters the limiter uses; the integration suites'
 * credentials (alice / wonderland), and an email provider whose links land in `links` (the test
 * plays the mailbox). Free of vitest: app processes run it too (tests/support/engine-app-worker.ts).
 */
import type { AuthConfig } from '../../src/lib/core/types.js';
import Email from '../../src/lib/providers/email.js';
import { passwordProvider, SECRET } from './fixtures.js';

export const ACCOUNT_LIMIT = 10;

/**
 * `storeTimeout`: how long the limiter waits for a counter (its default is 1 s; a harness that
 * queues every D1 call through miniflare's proxy takes longer under 100 attempts at once).
 */
export function engineAppConfig(
	adapter: NonNullable<AuthConfig['adapter']>,
	links: Map<string, string>,
	logger: AuthConfig['logger'],
	storeTimeout?: number
): AuthConfig {
	return {
		secret: SECRET,
		trustHost: true,
		adapter,
		session: { strategy: 'database' },
		providers: [
			passwordProvider(),
			Email({ id: 'email', from: 'kitauth <no-reply@example.test>', sendVerificationRequest: ({ identifier, url }) => void links.set(identifier, url) })
		],
		rateLimit: {
			rules: { credentials: { address: false, account: { freeAttempts: 1000, delay: 0, limit: ACCOUNT_LIMIT } } },
			...(storeTimeout ? { timeout: storeTimeout } : {})
		},
		logger
	};
}

