/**
 * Bytes a piece of code allocates on V8's heap, a measure that does not depend on the machine's
 * load (unlike time). V8 keeps no running total of allocations, so it is derived: the heap's growth
 * over the run plus what every garbage collection in it freed (`v8.GCProfiler` reports each one's
 * heap before and after). Off-heap memory (Buffers' backing stores, native libraries) is not
 * counted.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';

/** Bytes allocated per call of `op` (awaited `count` times, one after another), and GCs seen. */
export async function bytesPerCall(op: (i: number) => unknown, count: number): Promise<{ bytes: number; gcs: number }> {
	const profiler = new GCProfiler();
	profiler.start();
	const before = getHeapStatistics().used_heap_size;
	for (let i = 0; i < count; i++) await op(i);
	const after = getHeapStatistics().used_heap_size;
	const { statistics } = profiler.stop()!;
	let freed = 0;
	for (const gc of statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
	return { bytes: (after - before + freed) / count, gcs: statistics.length };
}
