/**
 * Installing the packages kitauth needs in the app, with the app's own package manager, at the
 * versions this kitauth asks for (its peer ranges).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { PackageManager } from './project.js';

interface OwnManifest {
	version: string;
	peerDependencies?: Record<string, string>;
}

/** This kitauth's package.json (its own name resolves to itself, in the repository and installed). */
function ownManifest(): OwnManifest {
	return createRequire(import.meta.url)('kitauth/package.json') as OwnManifest;
}

/** `name@range`: kitauth at this version, a peer at kitauth's range, anything else as it comes. */
export function spec(name: string): string {
	const own = ownManifest();
	if (name === 'kitauth') return `kitauth@^${own.version}`;
	const range = own.peerDependencies?.[name];
	return range ? `${name}@${range.split('||').at(-1)!.trim()}` : name;
}

/** The command that adds `names` to the app (`dev`: as devDependencies). */
export function installCommand(manager: PackageManager, names: string[], dev = false): string[] {
	const verb = manager === 'npm' ? 'install' : 'add';
	const flag = dev ? (manager === 'npm' ? '--save-dev' : '-D') : undefined;
	return [manager, verb, ...(flag ? [flag] : []), ...names.map(spec)];
}

/** Runs it in `root`, its output passed through; whether it succeeded. */
export function runInstall(root: string, command: string[]): boolean {
	const result = spawnSync(command[0]!, command.slice(1), { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
	return result.status === 0;
}
