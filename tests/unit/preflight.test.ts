/**
 * The preflight's decisions (scripts/preflight.ts), on made-up machines: which packages count as
 * missing, and whether it installs them or stops with the command that would. apt itself is not run.
 */
import { describe, expect, it } from 'vitest';
import { decide, type InstallRights, type Machine, missingPackages } from '../../scripts/preflight.js';

const ALL = ['/usr/bin/chromium', '/usr/lib/postgresql/15/bin/initdb', '/usr/bin/redis-server', '/usr/bin/python3', '/usr/sbin/pgbouncer'];

/** A machine whose executables are exactly `files`. */
function machine(files: string[], env: Record<string, string> = {}): Machine {
	return {
		env,
		isExecutable: (path) => files.includes(path),
		list: (dir) => [...new Set(files.filter((file) => file.startsWith(`${dir}/`)).map((file) => file.slice(dir.length + 1).split('/')[0]!))]
	};
}

const names = (m: Machine) => missingPackages(m).map((pkg) => pkg.name);

const ROOT: InstallRights = { root: true, passwordlessSudo: false, aptGet: true };
const SUDO: InstallRights = { root: false, passwordlessSudo: true, aptGet: true };
const NEITHER: InstallRights = { root: false, passwordlessSudo: false, aptGet: true };

describe('preflight: what is missing', () => {
	it('nothing on a machine with all five', () => {
		expect(names(machine(ALL))).toEqual([]);
	});

	it('each package by the file the tests use', () => {
		expect(names(machine([]))).toEqual(['chromium', 'postgresql', 'redis-server', 'python3', 'pgbouncer']);
		expect(names(machine(['/usr/bin/chromium', '/usr/bin/python3', '/usr/sbin/pgbouncer']))).toEqual(['postgresql', 'redis-server']);
		expect(names(machine(ALL.filter((file) => file !== '/usr/bin/python3')))).toEqual(['python3']);
		expect(names(machine(['/usr/lib/postgresql/17/bin/initdb', '/usr/bin/redis-server', '/usr/bin/python3', '/usr/sbin/pgbouncer']))).toEqual(['chromium']);
	});

	it('PostgreSQL only with an initdb (a leftover version directory is not a server)', () => {
		expect(names(machine(['/usr/bin/chromium', '/usr/lib/postgresql/15/lib/x.so', '/usr/bin/redis-server', '/usr/bin/python3', '/usr/sbin/pgbouncer']))).toEqual(['postgresql']);
	});

	it('Chromium where CHROMIUM_PATH points, as the end-to-end tests use it', () => {
		const rest = ALL.slice(1);
		expect(names(machine(['/opt/chrome/chrome', ...rest], { CHROMIUM_PATH: '/opt/chrome/chrome' }))).toEqual([]);
		expect(names(machine(['/usr/bin/chromium', ...rest], { CHROMIUM_PATH: '/opt/chrome/chrome' }))).toEqual(['chromium']);
	});
});

describe('preflight: install or stop', () => {
	const missing = missingPackages(machine(['/usr/bin/chromium', '/usr/bin/python3', '/usr/sbin/pgbouncer']));

	it('is ready when nothing is missing, whatever the rights', () => {
		expect(decide([], NEITHER)).toEqual({ kind: 'ready' });
	});

	it('as root with apt-get: installs just what is missing, non-interactively', () => {
		expect(decide(missing, ROOT)).toEqual({
			kind: 'install',
			packages: ['postgresql', 'redis-server'],
			commands: [
				['apt-get', 'update', '-q'],
				['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', 'postgresql', 'redis-server']
			]
		});
	});

	it('with passwordless sudo: the same through sudo -n', () => {
		const decision = decide(missing, SUDO);
		expect(decision.kind).toBe('install');
		if (decision.kind !== 'install') return;
		expect(decision.commands.map((command) => command.slice(0, 3))).toEqual([
			['sudo', '-n', 'apt-get'],
			['sudo', '-n', 'env']
		]);
	});

	it('without root or passwordless sudo: stops, naming the packages and the one command', () => {
		const decision = decide(missing, NEITHER);
		expect(decision).toMatchObject({ kind: 'stop', packages: ['postgresql', 'redis-server'] });
		if (decision.kind !== 'stop') return;
		expect(decision.message).toContain('postgresql (the scale-out tests)');
		expect(decision.message).toContain("redis-server (the rate limiter's Redis store)");
		expect(decision.message).not.toContain('chromium');
		expect(decision.message).toContain('sudo apt-get update && sudo apt-get install -y postgresql redis-server');
	});

	it('without apt-get (not Debian): stops, even as root, with the command (no sudo for root)', () => {
		const decision = decide(missing, { ...ROOT, aptGet: false });
		expect(decision.kind).toBe('stop');
		if (decision.kind !== 'stop') return;
		expect(decision.message).toContain('\n  apt-get update && apt-get install -y postgresql redis-server');
	});
});
