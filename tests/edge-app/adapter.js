import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import cloudflare from '@sveltejs/adapter-cloudflare';

/**
 * @sveltejs/adapter-cloudflare as it is (8.0.0-next.6, the registry's only release for SvelteKit 3),
 * bridged over the one builder method SvelteKit 3.2 removed: `generateManifest` (replaced by
 * `generateServerInstance`, which writes the same manifest into a module). The adapter still does
 * all of its own work: the Worker entry, the static assets, `_headers`, its Wrangler checks.
 *
 * @param {import('@sveltejs/adapter-cloudflare').AdapterOptions} options
 * @returns {import('@sveltejs/kit').Adapter}
 */
export default function adapter(options) {
	const inner = cloudflare(options);
	return {
		...inner,
		adapt(builder) {
			const bridged = new Proxy(builder, {
				get(target, property, receiver) {
					if (property !== 'generateManifest') return Reflect.get(target, property, receiver);
					/** @param {{ relativePath: string }} options */
					return ({ relativePath }) => manifestExpression(target, relativePath);
				}
			});
			return inner.adapt(bridged);
		}
	};
}

/**
 * The manifest as a JavaScript expression whose imports are relative to the adapter's temporary
 * directory (`relativePath` leads from there to the server output): what `generateManifest`
 * returned, read from the module `generateServerInstance` writes into that same directory.
 *
 * @param {import('@sveltejs/kit').Builder} builder
 * @param {string} relativePath
 */
function manifestExpression(builder, relativePath) {
	const tmp = builder.getBuildDirectory('cloudflare-tmp');
	if (path.posix.relative(tmp, builder.getServerDirectory()) !== relativePath) {
		throw new Error(`generateManifest bridge: expected paths relative to ${tmp}, got ${relativePath}`);
	}
	const file = `${tmp}/server-instance.js`;
	builder.generateServerInstance(file);
	const source = readFileSync(file, 'utf8');
	rmSync(file);
	const match = /const manifest = ([^]*);\s*export const server = /.exec(source);
	if (!match?.[1]) throw new Error(`generateManifest bridge: no manifest in\n${source}`);
	return match[1];
}
