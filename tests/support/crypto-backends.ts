/**
 * The crypto module's two backends side by side, for tests that run the same cases on both: the
 * Node backend (node:crypto, synchronous) and the Web Crypto backend (asynchronous). Each JWE
 * entry point is wrapped to take and return promises, so one test body fits both.
 */
import { HeaderCache } from '../../src/lib/core/crypto/jwe-header.js';
import * as node from '../../src/lib/core/crypto/node/index.js';
import type { ContentEncryption, CryptoBackend, JweHeader } from '../../src/lib/core/crypto/types.js';
import * as web from '../../src/lib/core/crypto/web/index.js';

/** A derived key, as far as the tests look into it. */
export interface TestKey {
	kid: string;
}

export interface TestKeyring {
	readonly secrets: readonly string[];
	readonly headers: HeaderCache<unknown>;
	current(salt: string, enc?: ContentEncryption): Promise<TestKey>;
	candidates(salt: string, enc: ContentEncryption, kid: string | undefined): Iterable<TestKey> | AsyncIterable<TestKey>;
}

export interface JweBackend {
	name: 'node' | 'web';
	backend: CryptoBackend;
	keyring(secrets: string | readonly string[]): TestKeyring;
	sealJwe(plaintext: string, key: TestKey | Promise<TestKey>): Promise<string>;
	openJwe(
		token: string,
		select: (header: JweHeader) => Iterable<TestKey> | AsyncIterable<TestKey>,
		headers?: HeaderCache<unknown>
	): Promise<string | null>;
}

/** Every key a selector yields, whichever kind of iterable it is. */
export async function collect<T>(keys: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const key of keys) out.push(key);
	return out;
}

const nodeJwe: JweBackend = {
	name: 'node',
	backend: node.backend,
	keyring(secrets) {
		const ring = new node.Keyring(secrets);
		return {
			secrets: ring.secrets,
			headers: ring.headers as HeaderCache<unknown>,
			current: async (salt, enc) => ring.current(salt, enc),
			candidates: (salt, enc, kid) => ring.candidates(salt, enc, kid)
		};
	},
	async sealJwe(plaintext, key) {
		return node.sealJwe(plaintext, (await key) as Parameters<typeof node.sealJwe>[1]);
	},
	async openJwe(token, select, headers) {
		// The Node codec takes keys synchronously: its keyring's candidates are, and arrays are.
		return node.openJwe(token, (header) => select(header) as Iterable<never>, headers as never);
	}
};

const webJwe: JweBackend = {
	name: 'web',
	backend: web.backend,
	keyring(secrets) {
		const ring = new web.Keyring(secrets);
		return {
			secrets: ring.secrets,
			headers: ring.headers as HeaderCache<unknown>,
			current: (salt, enc) => ring.current(salt, enc),
			candidates: (salt, enc, kid) => ring.candidates(salt, enc, kid)
		};
	},
	sealJwe: (plaintext, key) => web.sealJwe(plaintext, key as Parameters<typeof web.sealJwe>[1]),
	openJwe: (token, select, headers) => web.openJwe(token, select as never, headers as never)
};

export const JWE_BACKENDS: [name: string, backend: JweBackend][] = [
	['node', nodeJwe],
	['web', webJwe]
];

export { HeaderCache };
