/**
 * V8 limits of every engine worker thread (the pool's Piscina threads, and the RSS bench that
 * measures them, bench/lookup-rss.ts).
 *
 * The young generation is the largest per-thread cost that does not belong to the index. By
 * default V8 sizes each isolate's young generation from the machine's memory and grows it with
 * the allocation rate: a broad lookup at national scale allocates ~0.5 MB of short-lived garbage,
 * so under load a thread's new space grew to 128 MiB and kept 32–64 MiB resident after a full GC.
 * A 16 MB young generation (two 8 MiB semi-spaces) keeps every thread's new space at 16 MiB: on
 * the 30M-point index the second thread's RSS went from 110 to 74.5 MiB. Scavenges become ~5×
 * more frequent but each is cheaper (what survives is one lookup's working set); lookups per
 * CPU-second moved by −3 %, within the spread of runs, and recipient blocks not at all
 * (docs/performance.md, "Per-thread memory"). 8 MB would save 8 MiB more a thread, at −8 %.
 */
export const ENGINE_WORKER_RESOURCE_LIMITS = {
  maxYoungGenerationSizeMb: 16,
} as const;
