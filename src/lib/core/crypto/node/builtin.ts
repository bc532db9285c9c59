import type * as NodeCrypto from 'node:crypto';

/**
 * node:crypto, taken from the running Node (`process.getBuiltinModule`, Node ≥ 20.16) rather than
 * imported: a bundle made for a worker runtime with Node's export conditions (Vite's SSR build for
 * adapter-cloudflare resolves packages as for Node) then still loads, and `auto.ts` picks the Web
 * Crypto backend there. `undefined` anywhere but Node: runtimes that emulate `process` (workerd,
 * Deno, Bun) have Web Crypto natively, and their node:crypto is a compatibility layer.
 */
export function nodeCrypto(): typeof NodeCrypto | undefined {
	const proc = (globalThis as { process?: Partial<NodeJS.Process> }).process;
	if (typeof proc?.versions?.node !== 'string' || typeof proc.getBuiltinModule !== 'function') return undefined;
	// Node 21+ has a navigator ("Node.js/24"); Node 20 has none. The others all have one.
	const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
	if (agent !== undefined && !(typeof agent === 'string' && agent.startsWith('Node.js/'))) return undefined;
	return proc.getBuiltinModule('node:crypto');
}
