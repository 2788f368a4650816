/**
 * V8 limits of every engine worker thread (the pool's Piscina threads, and the RSS bench that
 * measures them, bench/lookup-rss.ts).
 *
 * The young generation is the largest per-thread cost that does not belong to the index. By
 * default V8 sizes each isolate's young generation from the machine's memory and grows it with
 * the allocation rate: a lookup allocates ~0.5 MB of short-lived garbage (candidate lists at
 * national scale), so under load every thread's new space grew to 128 MiB, and it stayed at
 * 64 MiB committed (resident) after a full GC — 56 of the ~85 MB a thread cost on the 5M-point
 * index. A young generation of 16 MB (two 8 MiB semi-spaces) keeps every thread at 16 MiB; the
 * scavenges become ~5× more frequent but each one is cheaper (what survives a scavenge is one
 * lookup's working set, not the generation's size), and lookups per CPU-second stayed within the
 * measurement noise (docs/performance.md, "Per-thread memory").
 */
export const ENGINE_WORKER_RESOURCE_LIMITS = {
  maxYoungGenerationSizeMb: 16,
} as const;
