/**
 * Real addresses for the HTTP benchmarks' single `search` (bench/http.bench.ts, tools/http-ab.ts).
 */
import { HELD_OUT_VARIANTS, heldOutQuery, heldOutSuites } from '../../eval/lookup/fallback-suites.ts';
import { sample } from '../../eval/lookup/suites.ts';
import { hasSharedData } from '../../src/config/shared-data.ts';

/**
 * 2,000 addresses the embedded index does not hold (eval/lookup's held-out suites against it:
 * OSM Copenhagen, Helsinki, Malta, Krems, Bayreuth and BANO France), in the four forms the eval
 * asks them (structured, free text, without postcode, without city), shuffled with a fixed seed;
 * none without ../shared.
 */
export function realAddresses(): Record<string, string>[] {
  if (!hasSharedData()) return [];
  const out: Record<string, string>[] = [];
  for (const s of heldOutSuites()) {
    if (s.index !== 'default') continue;
    for (const t of sample(s.truth(), 100, 3)) {
      for (const v of HELD_OUT_VARIANTS) {
        const q = heldOutQuery(t, v);
        if (q) out.push(q as Record<string, string>);
      }
    }
  }
  return sample(out, 2000, 7);
}
