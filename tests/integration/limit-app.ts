/**
 * An app on the server API for the limiter's suites: requests come from the address a test names,
 * with a clock the test moves (no sleeping), the refusals recorded.
 */
import { type AuthConfig, createAuthServer } from '../../src/lib/core/index.js';
import { TestClient } from '../support/client.js';
import { ORIGIN, passwordProvider, SECRET } from './fixtures.js';

export function limitedApp(overrides: Partial<AuthConfig> = {}, origin = ORIGIN) {
	let now = Date.UTC(2026, 10, 24, 12);
	const events: unknown[] = [];
	const server = createAuthServer(
		{
			secret: SECRET,
			trustHost: true,
			providers: [passwordProvider()],
			rateLimit: { now: () => now },
			events: { rateLimited: (message) => void events.push(message) },
			logger: { error: () => {}, warn: () => {}, debug: () => {} },
			...overrides
		},
		{ env: {} }
	);
	return {
		server,
		/** A browser (its own cookie jar) whose requests come from `address`. */
		client: (address = '203.0.113.7', headers: Record<string, string> = {}) =>
			new TestClient(
				(request) => {
					const withHeaders = new Headers(request.headers);
					for (const [name, value] of Object.entries(headers)) withHeaders.set(name, value);
					return server.handle(new Request(request, { headers: withHeaders }), { clientAddress: address });
				},
				{ origin }
			),
		later: (seconds: number) => void (now += seconds * 1000),
		now: () => now,
		events
	};
}
