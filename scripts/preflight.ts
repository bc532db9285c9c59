/**
 * The first step of `npm test` (and so of CI): the Debian packages the tests run, present or
 * installed. When one is missing it installs what is missing (`apt-get`, as root or through
 * passwordless sudo); where it cannot, it stops at once, naming the packages and the one command
 * that installs them, rather than letting a test fail minutes later.
 *
 *     npm run preflight
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the preflight may look at on this machine. */
export interface Machine {
	env: Record<string, string | undefined>;
	isExecutable(path: string): boolean;
	/** A directory's entries; none when it does not exist. */
	list(dir: string): string[];
}

export interface OsPackage {
	name: string;
	/** What needs it. */
	for: string;
	present(machine: Machine): boolean;
}

const PG_ROOT = '/usr/lib/postgresql';

/** Where the tests look for each (playwright.config.ts, tests/support/postgres.ts, tests/support/redis.ts, tests/support/lock-holders.ts, tests/support/pgbouncer.ts). */
export const OS_PACKAGES: readonly OsPackage[] = [
	{
		name: 'chromium',
		for: 'the end-to-end tests',
		present: (machine) => machine.isExecutable(machine.env.CHROMIUM_PATH ?? '/usr/bin/chromium')
	},
	{
		name: 'postgresql',
		for: 'the scale-out tests',
		present: (machine) => machine.list(PG_ROOT).some((version) => machine.isExecutable(`${PG_ROOT}/${version}/bin/initdb`))
	},
	{
		name: 'redis-server',
		for: "the rate limiter's Redis store",
		present: (machine) => machine.isExecutable('/usr/bin/redis-server')
	},
	{
		name: 'python3',
		for: "the lock tests (it holds SQLite's shared-memory locks: Node has no fcntl)",
		present: (machine) => machine.isExecutable('/usr/bin/python3')
	},
	{
		name: 'pgbouncer',
		for: 'the PostgreSQL adapter through a transaction pooler',
		present: (machine) => machine.isExecutable('/usr/sbin/pgbouncer')
	}
];

/** How this machine can install Debian packages, as far as the preflight may find out. */
export interface InstallRights {
	root: boolean;
	/** `sudo -n true` succeeds (asked only when not root). */
	passwordlessSudo: boolean;
	aptGet: boolean;
}

export type Decision =
	| { kind: 'ready' }
	| { kind: 'install'; packages: string[]; commands: string[][] }
	| { kind: 'stop'; packages: string[]; message: string };

export function missingPackages(machine: Machine, packages: readonly OsPackage[] = OS_PACKAGES): OsPackage[] {
	return packages.filter((pkg) => !pkg.present(machine));
}

/** The one command a person runs to install `packages`. */
export function installCommand(packages: string[], root: boolean): string {
	const sudo = root ? '' : 'sudo ';
	return `${sudo}apt-get update && ${sudo}apt-get install -y ${packages.join(' ')}`;
}

export function stopMessage(missing: OsPackage[], root: boolean): string {
	return [
		"kitauth's tests need Debian packages that are not installed:",
		...missing.map((pkg) => `  ${pkg.name} (${pkg.for})`),
		'Install them with:',
		`  ${installCommand(
			missing.map((pkg) => pkg.name),
			root
		)}`
	].join('\n');
}

/** Install what is missing where the machine lets us, else stop with the command to run. */
export function decide(missing: OsPackage[], rights: InstallRights): Decision {
	if (missing.length === 0) return { kind: 'ready' };
	const packages = missing.map((pkg) => pkg.name);
	if (!rights.aptGet || !(rights.root || rights.passwordlessSudo)) {
		return { kind: 'stop', packages, message: stopMessage(missing, rights.root) };
	}
	// sudo resets the environment, so DEBIAN_FRONTEND goes through `env` (the same as root).
	const prefix = rights.root ? [] : ['sudo', '-n'];
	return {
		kind: 'install',
		packages,
		commands: [
			[...prefix, 'apt-get', 'update', '-q'],
			[...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', ...packages]
		]
	};
}

/** This machine, through the file system. */
export function realMachine(env: Record<string, string | undefined> = process.env): Machine {
	return {
		env,
		isExecutable(path) {
			try {
				accessSync(path, constants.X_OK);
				return true;
			} catch {
				return false;
			}
		},
		list(dir) {
			try {
				return readdirSync(dir);
			} catch {
				return [];
			}
		}
	};
}

function onPath(machine: Machine, command: string): boolean {
	return (machine.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && machine.isExecutable(join(dir, command)));
}

function installRights(machine: Machine): InstallRights {
	const root = process.getuid?.() === 0;
	const passwordlessSudo =
		!root && onPath(machine, 'sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
	return { root, passwordlessSudo, aptGet: onPath(machine, 'apt-get') };
}

/** Checks, installs where it can, checks again; the exit code says whether the tests can run. */
export function preflight(machine: Machine = realMachine()): number {
	const missing = missingPackages(machine);
	if (missing.length === 0) return 0;
	const rights = installRights(machine);
	const decision = decide(missing, rights);
	if (decision.kind === 'ready') return 0;
	if (decision.kind === 'stop') {
		console.error(decision.message);
		return 1;
	}
	console.log(`preflight: installing the Debian packages the tests need: ${decision.packages.join(' ')}`);
	for (const [bin, ...args] of decision.commands) {
		if (!bin || spawnSync(bin, args, { stdio: 'inherit' }).status !== 0) break;
	}
	const still = missingPackages(machine);
	if (still.length === 0) return 0;
	console.error(`preflight: the installation did not complete.\n${stopMessage(still, rights.root)}`);
	return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	process.exitCode = preflight();
}
