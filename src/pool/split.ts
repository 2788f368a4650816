/**
 * How the pool splits one batch of elements across its threads (HTTP batches, Kafka slices).
 *
 * One rule for every entrance: a batch of at least SPLIT_MIN_ELEMENTS elements is cut into one
 * part per thread (equal parts, in order); a smaller batch runs as one task. A part costs a task
 * round trip (a structured clone each way and a thread hand-off), worth paying only when the
 * elements' engine time is larger; see SPLIT_MIN_ELEMENTS for the measurement.
 */

/**
 * The smallest batch the pool splits. Before, HTTP split from 64 elements and Kafka from 256.
 * Measured on the 2-core machine with a two-thread pool (validated elements, median of 300
 * single batches, split vs one task; the machine was saturated by other work, load ≈ 30):
 * lines, 64 elements: 0.65 → 0.86 ms wall, 1.0 → 1.8 ms CPU; 255: CPU equal; search (default
 * index), 16: 7.8 → 7.0 ms, 64–255: wall within noise, CPU +5–20 %. A split pays only when a
 * thread is idle, and costs a task round trip (≈ 33 µs unloaded, docs/performance.md) when none
 * is. 64 is kept: at 64 each part carries ≥ 32 elements, several round trips of engine work
 * even for recipient blocks (1.3–6 µs each); HTTP batches behave as before; and on Kafka a slice
 * under 256 records only arises when the stream is light (a caught-up consumer fetches little),
 * which is when threads are idle and the split shortens the slice's latency, while under a
 * backlog slices run to thousands of records and were split before too.
 */
export const SPLIT_MIN_ELEMENTS = 64;

/** The [from, to) ranges a batch of `n` elements runs as, on `threads` threads. */
export function splitRanges(n: number, threads: number): Array<[from: number, to: number]> {
  const t = Math.max(1, Math.floor(threads));
  if (t === 1 || n < SPLIT_MIN_ELEMENTS) return [[0, n]];
  const size = Math.ceil(n / t);
  const parts: Array<[number, number]> = [];
  for (let i = 0; i < n; i += size) parts.push([i, Math.min(n, i + size)]);
  return parts;
}
