/**
 * The app the CLI works on: its folder, its package.json, which SvelteKit it runs on and which
 * package manager installs its packages. Files are read and written relative to its root.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './errors.js';

export interface Manifest {
	name?: string;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
}

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** A folder's files, by paths relative to it. */
export interface Files {
	root: string;
	read(path: string): string | undefined;
	write(path: string, text: string): void;
	exists(path: string): boolean;
}

export interface Project extends Files {
	manifest: Manifest;
	/** SvelteKit's major version: the installed one, else what package.json asks for. */
	kit: 2 | 3;
	packageManager: PackageManager;
	/** The app's source is TypeScript (a tsconfig.json), else JavaScript. */
	typescript: boolean;
}

export function folder(dir: string): Files {
	const root = resolve(dir);
	if (!existsSync(root)) throw new UsageError(`There is no folder ${root}.`);
	return {
		root,
		read(path) {
			try {
				return readFileSync(join(root, path), 'utf8');
			} catch {
				return undefined;
			}
		},
		write(path, content) {
			mkdirSync(dirname(join(root, path)), { recursive: true });
			writeFileSync(join(root, path), content);
		},
		exists: (path) => existsSync(join(root, path))
	};
}

/** The project in `dir`; a UsageError when it is not a SvelteKit 2 or 3 app. */
export function openProject(dir: string): Project {
	const files = folder(dir);
	const root = files.root;
	const text = files.read('package.json');
	if (text === undefined) throw new UsageError(`No package.json in ${root}: run this in your SvelteKit app's folder (or pass --cwd <folder>).`);
	let manifest: Manifest;
	try {
		manifest = JSON.parse(text) as Manifest;
	} catch {
		throw new UsageError(`${join(root, 'package.json')} is not valid JSON.`);
	}
	return {
		...files,
		manifest,
		kit: kitMajor(root, manifest),
		packageManager: packageManager(root),
		typescript: files.exists('tsconfig.json')
	};
}

/** Whether the app lists `name` among its dependencies. */
export function hasDependency(project: Project, name: string): boolean {
	return !!(project.manifest.dependencies?.[name] ?? project.manifest.devDependencies?.[name]);
}

function kitMajor(root: string, manifest: Manifest): 2 | 3 {
	const range = manifest.dependencies?.['@sveltejs/kit'] ?? manifest.devDependencies?.['@sveltejs/kit'];
	if (range === undefined) throw new UsageError(`${root} is not a SvelteKit app: its package.json does not depend on @sveltejs/kit.`);
	let version: string | undefined;
	try {
		const manifestPath = createRequire(join(root, 'package.json')).resolve('@sveltejs/kit/package.json');
		version = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string }).version;
	} catch {
		version = /\d+/.exec(range)?.[0]; // not installed yet: what package.json asks for
	}
	const major = Number(/^\D*(\d+)/.exec(version ?? '')?.[1]);
	if (major === 2 || major === 3) return major;
	throw new UsageError(
		`kitauth needs SvelteKit 2 or 3; this app has @sveltejs/kit ${version ?? range}` +
			(version === undefined ? ' (not installed: run your package manager’s install first)' : '') +
			'.'
	);
}

/** From the lock file the app has; npm when it has none. */
function packageManager(root: string): PackageManager {
	if (existsSync(join(root, 'pnpm-lock.yaml'))) return 'pnpm';
	if (existsSync(join(root, 'yarn.lock'))) return 'yarn';
	if (existsSync(join(root, 'bun.lock')) || existsSync(join(root, 'bun.lockb'))) return 'bun';
	return 'npm';
}
