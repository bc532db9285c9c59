/**
 * The part every app-server worker shares (postgres-app-worker.ts, soak-app-worker.ts): a
 * node:http server on 127.0.0.1 that turns each request into a web `Request` for `handler` and
 * writes its `Response` back. It prints `{"port": n}` as one line once it listens, writes a
 * failure of its own to stderr as one JSON line (and answers 500), and exits when its stdin ends
 * (the parent closed it or is gone).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** Answers a request itself (`true`) instead of handing it to the handler, e.g. a test probe. */
export type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean;

export function serveApp(handler: (request: Request) => Promise<Response>, intercept: Intercept = () => false): void {
	let origin = '';
	const server = createServer((req, res) => {
		if (intercept(req, res)) return;
		toRequest(req, origin)
			.then(handler)
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
}

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
