/**
 * Runs a Node child process to which file modes apply, for the tests of a read-only database file.
 * Root ignores file modes (CAP_DAC_OVERRIDE), so as root the child runs with no capabilities at
 * all: still uid 0, the owner of the test's files (so a 0444 file and a 0555 directory refuse it
 * writes), but also still able to read this checkout wherever it lies. Switching to `nobody`
 * instead failed from a clone under a 0700 folder (root's home): `nobody` could not even start
 * the Node binary in node_modules, and the test saw only a null exit status.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

/** util-linux's `setpriv` (Debian's util-linux is essential: every Debian system has it). */
const SETPRIV = 'setpriv';
/** No capability in the child's bounding set: an exec as uid 0 then gains none. */
const DROP_ALL = ['--bounding-set', '-all', '--inh-caps', '-all', '--'];

/** `process.execPath args…`, as a process that file modes apply to. */
export function spawnNodeUnprivileged(args: string[], options: { timeout: number }): SpawnSyncReturns<string> {
	if (process.getuid?.() !== 0) return spawnSync(process.execPath, args, { ...options, encoding: 'utf8' });
	assertCanDropCapabilities();
	return spawnSync(SETPRIV, [...DROP_ALL, process.execPath, ...args], { ...options, encoding: 'utf8' });
}

let checked = false;

/** Fails at once, saying why, where root cannot shed its capabilities (no setpriv, no CAP_SETPCAP). */
function assertCanDropCapabilities(): void {
	if (checked) return;
	// The child reads its own capabilities: a bounding set that kept DAC_OVERRIDE would make the
	// read-only tests pass for the wrong reason, or fail with a confusing write that succeeded.
	const probe = spawnSync(SETPRIV, [...DROP_ALL, 'sh', '-c', 'grep ^CapEff: /proc/self/status'], { encoding: 'utf8' });
	const effective = /^CapEff:\s*([0-9a-f]+)/m.exec(probe.stdout ?? '')?.[1];
	if (probe.status !== 0 || effective === undefined || BigInt(`0x${effective}`) !== 0n) {
		throw new Error(
			'These tests need a process that file modes apply to. As root that is root without capabilities, ' +
				`started with \`setpriv ${DROP_ALL.join(' ')}\` (util-linux), which failed here` +
				` (${probe.error?.message ?? `exit ${probe.status}: ${(probe.stderr ?? '').trim() || `CapEff ${effective}`}`}). ` +
				'Run the tests as a user other than root, or where root may drop its capabilities (CAP_SETPCAP).'
		);
	}
	checked = true;
}
