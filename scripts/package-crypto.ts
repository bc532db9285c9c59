/**
 * Points the packaged core at its crypto backend by export condition: svelte-package copies
 * `src/lib/core/crypto/backend.ts` (the run-time choice, `auto.ts`, which the source tree uses),
 * and this rewrites that one module in the package to import `#kitauth/crypto`, which
 * package.json `imports` maps: `workerd`, `worker`, `edge-light`, `deno` and `browser` to the Web
 * Crypto backend alone (no Node backend, no `node:` import in its module graph), anything else
 * to `auto.js`.
 *
 *     npx node scripts/package-crypto.ts [package-dir]     (default: ./dist)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export const CRYPTO_IMPORT = '#kitauth/crypto';

/** Rewrites `<packageDir>/core/crypto/backend.js`. */
export function packageCrypto(packageDir: string): void {
	const file = resolve(packageDir, 'core/crypto/backend.js');
	if (!existsSync(file)) throw new Error(`${file} does not exist: run svelte-package first`);
	const source = readFileSync(file, 'utf8');
	const from = "export { backend } from './auto.js';";
	if (!source.includes(from)) throw new Error(`${file} does not re-export ./auto.js as expected`);
	writeFileSync(file, source.replace(from, `export { backend } from '${CRYPTO_IMPORT}';`));
	const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { imports?: Record<string, unknown> };
	if (!manifest.imports?.[CRYPTO_IMPORT]) throw new Error(`package.json imports no ${CRYPTO_IMPORT}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	packageCrypto(resolve(process.argv[2] ?? resolve(root, 'dist')));
}
