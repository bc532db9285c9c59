/**
 * The fuzzers' randomness: one seeded PRNG per case, derived from the run's seed and the case's
 * index, so any single case can be replayed (`FUZZ_SEED=<seed> FUZZ_ONLY=<index>`) without the
 * cases before it.
 */

/** The run's settings: `FUZZ_SEED` (default: a fresh one), `FUZZ_CASES`, `FUZZ_ONLY`. */
export interface FuzzSettings {
	seed: number;
	cases: number;
	/** Run only this case index (to replay one failure). */
	only: number | undefined;
}

export function fuzzSettings(defaultCases: number): FuzzSettings {
	const env = process.env;
	const seed = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : (Math.random() * 2 ** 32) >>> 0;
	if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${env.FUZZ_SEED}`);
	const cases = env.FUZZ_CASES ? Number(env.FUZZ_CASES) : defaultCases;
	if (!Number.isSafeInteger(cases) || cases < 1) throw new Error(`FUZZ_CASES must be a positive integer, got ${env.FUZZ_CASES}`);
	const only = env.FUZZ_ONLY ? Number(env.FUZZ_ONLY) : undefined;
	return { seed: seed >>> 0, cases, only };
}

/** The indices a run covers. */
export function caseIndices(settings: FuzzSettings): number[] {
	return settings.only === undefined ? Array.from({ length: settings.cases }, (_, i) => i) : [settings.only];
}

export class Random {
	private state: number;

	constructor(seed: number, index = 0) {
		// splitmix32 of (seed, index): neighbouring indices get unrelated streams.
		let z = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
		z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
		z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
		this.state = (z ^ (z >>> 16)) >>> 0;
	}

	/** [0, 1), mulberry32. */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) | 0;
		let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		if (items.length === 0) throw new Error('pick from nothing');
		return items[Math.floor(this.next() * items.length)] as T;
	}

	/** Up to `max` distinct items, in random order. */
	some<T>(items: readonly T[], max: number): T[] {
		const pool = [...items];
		const out: T[] = [];
		const count = this.int(0, Math.min(max, pool.length));
		while (out.length < count) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
		return out;
	}

	/** `length` random bytes. */
	bytes(length: number): Uint8Array {
		const out = new Uint8Array(length);
		for (let i = 0; i < length; i++) out[i] = Math.floor(this.next() * 256);
		return out;
	}
}
