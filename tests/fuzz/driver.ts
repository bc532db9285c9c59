/**
 * Runs fuzz cases and collects what went wrong, with everything needed to replay a case.
 */
import { describeRequest, type FuzzRequest } from './generator.js';
import type { FuzzSettings } from './random.js';

/** The bound on one request: far above any honest answer here, far below the test's timeout. */
export const REQUEST_BOUND_MS = 5000;

export interface Failure {
	request: FuzzRequest;
	violations: string[];
}

/** Resolves with `work`, or rejects once `ms` passed (the work itself is left to finish). */
export function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (${what})`)), ms);
	});
	return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The report of a failed run: the seed to replay it, and the first failures in full. */
export function report(title: string, settings: FuzzSettings, failures: Failure[], stats: Record<string, unknown>): string {
	const lines = [
		`${title}: ${failures.length} failing case(s).`,
		`Replay: FUZZ_SEED=${settings.seed} FUZZ_CASES=${settings.cases} (one case: FUZZ_SEED=${settings.seed} FUZZ_ONLY=<index>)`,
		`stats: ${JSON.stringify(stats)}`
	];
	for (const failure of failures.slice(0, 8)) {
		lines.push('', describeRequest(failure.request), ...failure.violations.map((v) => `  ✗ ${v}`));
	}
	return lines.join('\n');
}

/** The request's cookie pairs, then what the response set (a browser's jar after the answer). */
export function jarAfter(request: FuzzRequest, setCookieHeaders: string[]): string {
	const pairs = (request.headers.find(([name]) => name === 'cookie')?.[1] ?? '')
		.split(';')
		.map((pair) => pair.trim())
		.filter(Boolean);
	for (const header of setCookieHeaders) {
		const [pair = ''] = header.split(';');
		const name = pair.slice(0, pair.indexOf('=')).trim();
		const deleted = /max-age=0|max-age=-|expires=thu, 01 jan 1970/i.test(header);
		for (let i = pairs.length - 1; i >= 0; i--) if ((pairs[i] as string).startsWith(`${name}=`)) pairs.splice(i, 1);
		if (!deleted) pairs.push(pair.trim());
	}
	return pairs.join('; ');
}
