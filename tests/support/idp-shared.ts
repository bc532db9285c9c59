/**
 * What the two test OpenID Providers (`oidc-provider.ts`, `rogue-idp.ts`) share: the test accounts,
 * and a loopback HTTP server that counts requests per endpoint and can be slowed down or stopped,
 * so a test can assert "no token exchange happened" or "the OP was unreachable".
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface TestAccount {
	/** The stable, opaque subject. Deliberately not the login name nor the e-mail address. */
	sub: string;
	email?: string;
	/** A boolean, or the string "true"/"false" some IdPs (Apple) send. */
	email_verified?: boolean | 'true' | 'false';
	name?: string;
	picture?: string;
	/** Any further claim; served when its scope is granted (oidc-provider) or always (rogue). */
	[claim: string]: unknown;
}

/** Login name → account. `alice` and `bob` exist on both OPs unless the caller replaces them. */
export const DEFAULT_ACCOUNTS: Readonly<Record<string, TestAccount>> = Object.freeze({
	alice: {
		sub: 'sub-alice-7c1e9b',
		email: 'alice@example.test',
		email_verified: true,
		name: 'Alice Liddell',
		picture: 'https://img.example.test/alice.png'
	},
	bob: {
		sub: 'sub-bob-40d2f8',
		email: 'bob@example.test',
		email_verified: false,
		name: 'Bob Builder',
		picture: 'https://img.example.test/bob.png'
	}
});

export type IdpEndpoint = 'discovery' | 'jwks' | 'authorization' | 'interaction' | 'token' | 'userinfo' | 'other';

export type RequestCounts = Record<IdpEndpoint, number>;

function zeroCounts(): RequestCounts {
	return { discovery: 0, jwks: 0, authorization: 0, interaction: 0, token: 0, userinfo: 0, other: 0 };
}

export interface LoopbackServer {
	port: number;
	/** `http://127.0.0.1:<port>` */
	origin: string;
	/** A snapshot of requests received per endpoint since start (or the last `resetCounts()`). */
	counts(): RequestCounts;
	resetCounts(): void;
	/** Hold every request `ms` milliseconds before handling it, until `resume()`. */
	pause(ms: number): void;
	resume(): void;
	/** Stop listening and drop open connections: afterwards the port refuses connections. */
	close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * Listens on 127.0.0.1 and a random port. `handlerFor(origin)` builds the handler once the origin
 * (hence the issuer) is known, because an issuer must contain the port.
 */
export async function startLoopback(
	classify: (pathname: string) => IdpEndpoint,
	handlerFor: (origin: string) => Promise<Handler>
): Promise<LoopbackServer> {
	let counts = zeroCounts();
	let delayMs = 0;
	const closing = new AbortController();
	let handler: Handler | undefined;

	const server = createServer((req, res) => {
		const endpoint = classify(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
		counts[endpoint] += 1;
		const run = (): void => {
			if (closing.signal.aborted || !handler) return void res.destroy();
			Promise.resolve(handler(req, res)).catch(() => {
				if (res.headersSent) return void res.destroy();
				res.statusCode = 500;
				res.end('internal error');
			});
		};
		if (delayMs <= 0) return run();
		// A timer the close() signal cancels, so a paused request never outlives the server.
		const timer = setTimeout(run, delayMs);
		closing.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('loopback server has no port');
	const origin = `http://127.0.0.1:${address.port}`;
	try {
		handler = await handlerFor(origin);
	} catch (error) {
		server.close();
		throw error;
	}

	return {
		port: address.port,
		origin,
		counts: () => ({ ...counts }),
		resetCounts: () => void (counts = zeroCounts()),
		pause: (ms) => void (delayMs = ms),
		resume: () => void (delayMs = 0),
		close: () =>
			new Promise<void>((resolve) => {
				if (closing.signal.aborted) return resolve();
				closing.abort();
				server.close(() => resolve());
				// Keep-alive sockets (fetch pools them) would otherwise hold close() open.
				server.closeAllConnections();
			})
	};
}
