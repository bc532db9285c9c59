/**
 * A remote libSQL server that accepts connections and never answers: `@libsql/client` has no
 * timeout of its own, so without the adapter's deadline every session read would hang.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import { Auth } from '../../src/lib/core/index.js';

const servers: { server: Server; sockets: Set<Socket> }[] = [];
afterEach(async () => {
	for (const { server, sockets } of servers.splice(0)) {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => server.close(resolve));
	}
});

/** A TCP server on 127.0.0.1 that reads everything and answers nothing. */
async function silentServer(): Promise<string> {
	const sockets = new Set<Socket>();
	const server = createServer((socket) => {
		sockets.add(socket);
		socket.on('data', () => {});
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	servers.push({ server, sockets });
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	return `http://127.0.0.1:${address.port}`;
}

describe('a remote server that never answers', () => {
	test('adapter calls reject with TIMEOUT after remoteTimeout', async () => {
		const adapter = LibSQLAdapter({ url: await silentServer() }, { remoteTimeout: 300 });
		// Without the deadline this would never settle (the test's own timeout would end it).
		await expect(adapter.getSessionAndUser('x')).rejects.toMatchObject({
			name: 'LibSQLAdapterError',
			code: 'TIMEOUT',
			message: expect.stringContaining('did not answer within 300 ms')
		});
	});

	test('a session read answers with a clear error, not a hang and not a session', async () => {
		const adapter = LibSQLAdapter({ url: await silentServer() }, { remoteTimeout: 300 });
		const logged: unknown[] = [];
		const config = {
			secret: 'remote-secret-0123456789abcdef0123456789',
			trustHost: true,
			adapter,
			providers: [],
			logger: { error: (error: unknown) => logged.push(error), warn: () => {}, debug: () => {} }
		};
		const request = new Request('http://localhost:3000/auth/session', {
			headers: { cookie: `authjs.session-token=${'a'.repeat(64)}` }
		});
		const res = await Auth(request, config);
		expect(res.status).toBe(503);
		expect(res.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token=') && !c.includes('Max-Age=0') && !/Expires=Thu, 01 Jan 1970/.test(c))).toBe(false);
		const body = await res.text();
		expect(body).not.toMatch(/127\.0\.0\.1|LibSQL|TIMEOUT/);
		expect(logged.length).toBeGreaterThan(0);
	});
});
