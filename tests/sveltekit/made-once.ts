import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Outputs the test files share (a packaged kitauth, a fixture's build), made one at a time across
 * the processes vitest runs them in, and made again only when what they are made from changed.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Makes `out` from `inputs` with `make`, unless it was made from the same inputs (and `variant`)
 * before: their hash is kept in `out`. One at a time across processes, per `out`. Whether it was
 * reused.
 */
export async function madeOnce(inputs: string[], out: string, variant: string, make: () => Promise<void>): Promise<boolean> {
	const release = await lock(join(ROOT, '.svelte-kit', `.build-lock-${createHash('sha256').update(out).digest('hex').slice(0, 12)}`));
	try {
		const hash = `${inputsHash(inputs, out)}${variant && ` ${variant}`}`;
		const stamp = join(out, '.inputs-sha256');
		if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return true;
		await make();
		writeFileSync(stamp, hash);
		return false;
	} finally {
		release();
	}
}

/**
 * A hash of the files under `paths` (names and contents), leaving out what builds write there:
 * dot-directories (`.build`, `.svelte-kit`) and `node_modules`.
 */
function inputsHash(paths: string[], out: string): string {
	const hash = createHash('sha256');
	const visit = (path: string) => {
		if (path === out) return;
		const stat = statSync(path);
		if (stat.isDirectory()) {
			for (const name of readdirSync(path).sort()) if (!name.startsWith('.') && name !== 'node_modules') visit(join(path, name));
		} else {
			hash.update(`${path.slice(ROOT.length)}\0`).update(readFileSync(path)).update('\0');
		}
	};
	for (const path of paths) visit(join(ROOT, path));
	return hash.digest('hex');
}

/** A lock between processes: a directory, made atomically; given up when older than 5 minutes. */
export async function lock(path: string): Promise<() => void> {
	for (;;) {
		try {
			mkdirSync(path);
			return () => rmSync(path, { recursive: true, force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			try {
				if (Date.now() - statSync(path).mtimeMs > 5 * 60_000) rmSync(path, { recursive: true, force: true });
			} catch {
				// released meanwhile
			}
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
}
