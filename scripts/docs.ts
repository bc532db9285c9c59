/**
 * `npm run docs`: builds the documentation site (docs/site, prerendered to docs/site/build) when
 * it is missing or older than what it is made of, then serves those static files on a local URL
 * it prints. `DOCS_PORT` (default 5180) and `DOCS_HOST` (127.0.0.1) move it; `--build` builds
 * and exits.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStatic } from './docs-server.ts';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'docs/site/build');
const SOURCES = ['docs/content', 'docs/site/src', 'docs/site/build-time', 'docs/site/vite.config.ts', 'src/lib', 'package.json'];

/** The newest modification time under a file or folder. */
function newest(path: string): number {
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const builtAt = existsSync(join(out, 'index.html')) ? statSync(join(out, 'index.html')).mtimeMs : 0;
const stale = SOURCES.some((source) => newest(join(root, source)) > builtAt);
if (stale || process.argv.includes('--build')) {
	console.log('Building the documentation site…');
	const build = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'docs/site/vite.config.ts'], {
		cwd: root,
		stdio: 'inherit'
	});
	if (build.status !== 0) process.exit(build.status ?? 1);
}
if (!process.argv.includes('--build')) {
	const host = process.env.DOCS_HOST ?? '127.0.0.1';
	const port = Number(process.env.DOCS_PORT ?? 5180);
	const server = await serveStatic(out, host, port);
	const address = server.address();
	console.log(`kitauth docs: http://${host}:${typeof address === 'object' && address ? address.port : port}/`);
}
