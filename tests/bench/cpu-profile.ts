/**
 * CPU profiles for the bench: runs an operation under V8's sampling profiler (`node:inspector`, in
 * this process) and summarises where the time went, by self time per function and by package
 * (kitauth, SvelteKit, Svelte, libSQL, Node's own), so a bench can say what share of a request is
 * whose. Proportions of one run, steadier than times on a busy machine.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}

export interface ProfileSummary {
	/** Share of samples per owner (kitauth, @sveltejs/kit, svelte, libsql, node, gc, other). */
	owners: Map<string, number>;
	/** The functions with the most self time: `[name (file:line), share]`. */
	top: [string, number][];
}

/** Who a frame's code belongs to, from its URL (built apps bundle packages into chunks: see `owner` callers). */
export type OwnerOf = (url: string, functionName: string) => string;

export const defaultOwner: OwnerOf = (url, name) => {
	if (name === '(garbage collector)') return 'gc';
	if (name === '(program)' || name === '(idle)') return 'idle/program';
	if (!url || url.startsWith('node:')) return 'node';
	if (/kitauth|\/src\/lib\//.test(url)) return 'kitauth';
	if (/@sveltejs\/kit/.test(url)) return '@sveltejs/kit';
	if (/\/svelte\//.test(url)) return 'svelte';
	if (/libsql|drizzle/.test(url)) return 'libsql/drizzle';
	if (/jose|@auth\/core|@panva/.test(url)) return 'jose/@auth';
	return 'other';
};

/** Profiles `count` awaited calls of `op`; optionally writes the raw `.cpuprofile` to `file`. */
export async function profile(op: (i: number) => unknown, count: number, owner: OwnerOf = defaultOwner, file?: string): Promise<ProfileSummary> {
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 100 });
	await session.post('Profiler.start');
	for (let i = 0; i < count; i++) await op(i);
	const { profile: raw } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
	session.disconnect();
	if (file) writeFileSync(file, JSON.stringify(raw));
	let total = 0;
	const owners = new Map<string, number>();
	const functions = new Map<string, number>();
	for (const node of raw.nodes) {
		const hits = node.hitCount ?? 0;
		if (!hits) continue;
		const { functionName, url, lineNumber } = node.callFrame;
		const who = owner(url, functionName);
		if (who === 'idle/program') continue;
		total += hits;
		owners.set(who, (owners.get(who) ?? 0) + hits);
		const key = `${functionName || '(anonymous)'} (${url.split('/').slice(-2).join('/')}:${lineNumber + 1})`;
		functions.set(key, (functions.get(key) ?? 0) + hits);
	}
	const share = (map: Map<string, number>) => new Map([...map].sort((a, b) => b[1] - a[1]).map(([key, hits]) => [key, hits / total]));
	return { owners: share(owners), top: [...share(functions)].slice(0, 15) };
}

/** The summary as text lines (owners on one line, then the top functions). */
export function formatProfile(summary: ProfileSummary): string {
	const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
	const owners = [...summary.owners].map(([who, share]) => `${who} ${pct(share)}`).join(', ');
	return [`  by owner: ${owners}`, ...summary.top.map(([name, share]) => `    ${pct(share).padStart(7)}  ${name}`)].join('\n');
}

interface SamplingNode {
	callFrame: { functionName: string; url: string; lineNumber: number };
	selfSize: number;
	children: SamplingNode[];
}

/**
 * Where `count` awaited calls of `op` allocate: V8's sampling heap profiler (every ~`interval`
 * bytes a stack is recorded, garbage included), as bytes per call by allocating function.
 */
export async function allocationSites(op: (i: number) => unknown, count: number, interval = 512): Promise<[string, number][]> {
	const session = new Session();
	session.connect();
	await session.post('HeapProfiler.enable');
	await session.post('HeapProfiler.startSampling', {
		samplingInterval: interval,
		includeObjectsCollectedByMajorGC: true,
		includeObjectsCollectedByMinorGC: true
	});
	for (let i = 0; i < count; i++) await op(i);
	const { profile: raw } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
	session.disconnect();
	const sites = new Map<string, number>();
	const walk = (node: SamplingNode) => {
		if (node.selfSize) {
			const { functionName, url, lineNumber } = node.callFrame;
			const key = `${functionName || '(anonymous)'} (${url.split('/').slice(-2).join('/')}:${lineNumber + 1})`;
			sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
		}
		for (const child of node.children) walk(child);
	};
	walk(raw.head);
	return [...sites].sort((a, b) => b[1] - a[1]).map(([key, bytes]) => [key, bytes / count]);
}
