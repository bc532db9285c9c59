/**
 * Which source file a position of a built file came from, read from its source map (v3). Only the
 * source is needed (not the line in it), so each segment keeps its column and source index. The
 * profile bench uses it to tell kitauth's code from SvelteKit's in a bundled build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The fields of one mapping segment (base64 VLQ, each relative to the previous segment's). */
function decodeSegment(segment: string): number[] {
	const values: number[] = [];
	let value = 0;
	let shift = 0;
	for (const char of segment) {
		const digit = DIGIT.get(char)!;
		value += (digit & 31) << shift;
		if (digit & 32) shift += 5;
		else {
			values.push(value & 1 ? -(value >>> 1) : value >>> 1);
			value = 0;
			shift = 0;
		}
	}
	return values;
}

export interface SourceLookup {
	/** The absolute path of the source at a 0-based line and column, or undefined. */
	sourceAt(line: number, column: number): string | undefined;
}

/** The lookup for a built file (its `.map` beside it), or undefined without one. */
export function readSourceMap(file: string): SourceLookup | undefined {
	if (!existsSync(`${file}.map`)) return undefined;
	const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; sourceRoot?: string; mappings: string };
	const sources = map.sources.map((source) => resolve(dirname(file), map.sourceRoot ?? '', source));
	const lines: [column: number, source: number][][] = [];
	let source = 0;
	for (const text of map.mappings.split(';')) {
		const segments: [number, number][] = [];
		let column = 0;
		for (const segment of text.split(',')) {
			if (!segment) continue;
			const [columnDelta, sourceDelta] = decodeSegment(segment);
			column += columnDelta!;
			if (sourceDelta !== undefined) {
				source += sourceDelta;
				segments.push([column, source]);
			}
		}
		lines.push(segments);
	}
	return {
		sourceAt(line, column) {
			const segments = lines[line];
			if (!segments?.length) return undefined;
			let found = segments[0]!;
			for (const segment of segments) {
				if (segment[0] > column) break;
				found = segment;
			}
			return sources[found[1]];
		}
	};
}
