import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.woff2': 'font/woff2',
	'.txt': 'text/plain; charset=utf-8'
};

/** The file a URL path names in a prerendered SvelteKit site: `/x` is `x.html`, `/` is `index.html`. */
async function fileFor(dir: string, pathname: string): Promise<string | null> {
	let path: string;
	try {
		path = decodeURIComponent(pathname);
	} catch {
		return null;
	}
	const full = normalize(join(dir, path));
	if (full !== dir && !full.startsWith(dir + sep)) return null;
	for (const candidate of [full, `${full}.html`, join(full, 'index.html')]) {
		const info = await stat(candidate).catch(() => null);
		if (info?.isFile()) return candidate;
	}
	return null;
}

/** Serves a folder of static files (GET and HEAD only) on host:port; port 0 picks a free one. */
export function serveStatic(dir: string, host: string, port: number): Promise<Server> {
	const server = createServer(async (request, response) => {
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			response.writeHead(405, { allow: 'GET, HEAD' }).end();
			return;
		}
		const pathname = new URL(request.url ?? '/', 'http://docs.invalid').pathname;
		const file = await fileFor(dir, pathname);
		if (!file) {
			response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
			return;
		}
		const body = await readFile(file);
		response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': body.length });
		response.end(request.method === 'HEAD' ? undefined : body);
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => resolve(server));
	});
}
