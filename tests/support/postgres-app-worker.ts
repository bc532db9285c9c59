/**
 * One app server of the two-process scale-out test: a node:http server that turns each request
 * into a web `Request` and answers with the core's `Auth()`, configured with
 * `@auth/drizzle-adapter` on a shared PostgreSQL, database sessions, the integration suites'
 * secret and credentials provider. The site's origin comes from `AUTH_URL` (the parent sets the
 * same one for every instance, as behind a load balancer).
 *
 *     node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts <this> <connection string>
 *
 * Listens on 127.0.0.1, port 0, and prints `{"port": n}` as one line once it does. Every error the
 * core logs goes to stderr as one JSON line. Exits when its stdin ends (the parent closed it or is
 * gone), or on the parent's signal.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { Auth } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import { passwordProvider, SECRET } from '../integration/fixtures.js';

const [connectionString = ''] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString, max: 4 });
// An idle connection killed by a server shutdown must not crash the app.
pool.on('error', () => {});

const config: AuthConfig = {
	secret: SECRET,
	trustHost: true,
	adapter: DrizzleAdapter(drizzle({ client: pool })),
	session: { strategy: 'database' },
	providers: [passwordProvider()],
	logger: {
		error: (error) => process.stderr.write(`${JSON.stringify({ name: error.name, message: error.message })}\n`),
		warn: () => {},
		debug: () => {}
	}
};

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
	const headers = new Headers();
	for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const method = req.method ?? 'GET';
	const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(Buffer.concat(chunks));
	// The listening address, never the (client-chosen) Host header.
	return new Request(`${origin}${req.url ?? '/'}`, { method, headers, body });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
	const headers: Record<string, string | string[]> = {};
	response.headers.forEach((value, name) => {
		if (name !== 'set-cookie') headers[name] = value;
	});
	const cookies = response.headers.getSetCookie();
	if (cookies.length) headers['set-cookie'] = cookies;
	const body = new Uint8Array(await response.arrayBuffer());
	res.writeHead(response.status, headers).end(body);
}

let origin = '';
const server = createServer((req, res) => {
	toRequest(req, origin)
		.then((request) => Auth(request, config))
		.then((response) => send(response, res))
		.catch((error: unknown) => {
			process.stderr.write(`${JSON.stringify({ name: 'ServerError', message: String(error) })}\n`);
			if (res.headersSent) return void res.destroy();
			res.writeHead(500).end();
		});
});

server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('the app server has no port');
	origin = `http://127.0.0.1:${address.port}`;
	process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
});

process.stdin.on('end', () => process.exit(0)).resume();
