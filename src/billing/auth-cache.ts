/**
 * What authentication looks up on every request, kept briefly (Billing.authenticate):
 * - the HMAC digest of a credential (secrets.ts `hashSecret`): deterministic for the install's
 *   pepper, memoised in a bounded map (the oldest entry leaves first); never logged;
 * - the account row found by a license digest (its guid digest, agreements, disabled flag), for
 *   at most `ttlMs` from the start of the read, so that `accounts disable`, a top-up or new
 *   agreements written by another process take effect within `ttlMs` (docs/http.md). Concurrent
 *   requests of one license share one read. An unknown license is not kept (a new account works
 *   at once), nor a failed read.
 * The money decisions (402) never come from here: reserve asks the store.
 */
import type { AccountRow } from './store.ts';

/** How long the HTTP server keeps an account row for authentication (≤ 1 s, issue 20). */
export const AUTH_CACHE_MS = 1000;

const MAX_ENTRIES = 10_000;

interface Kept {
  /** When the read started (ms). */
  at: number;
  row: Promise<AccountRow | undefined>;
}

export class AuthCache {
  private readonly ttlMs: number;
  private readonly digests = new Map<string, string>();
  private readonly rows = new Map<string, Kept>();

  /** `ttlMs` 0: every authentication reads the store (digests are still memoised). */
  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  /** The digest of `value` under `kind`, computed once by `compute`. */
  digest(kind: string, value: string, compute: () => string): string {
    const k = kind + '\0' + value;
    let d = this.digests.get(k);
    if (d === undefined) {
      d = compute();
      bounded(this.digests).set(k, d);
    }
    return d;
  }

  /** The account of `licenseHash`: kept if read less than `ttlMs` ago, else read by `read`. */
  account(licenseHash: string, read: () => Promise<AccountRow | undefined>): Promise<AccountRow | undefined> {
    if (this.ttlMs <= 0) return read();
    const now = Date.now();
    const kept = this.rows.get(licenseHash);
    if (kept && now - kept.at < this.ttlMs) return kept.row;
    if (kept) this.rows.delete(licenseHash);
    const row = read();
    const entry: Kept = { at: now, row };
    bounded(this.rows).set(licenseHash, entry);
    const forget = () => {
      if (this.rows.get(licenseHash) === entry) this.rows.delete(licenseHash);
    };
    row.then((r) => { if (!r) forget(); }, forget);
    return row;
  }

  /** Forgets every account row (this process changed an account). */
  clear(): void {
    this.rows.clear();
  }
}

/** `m`, with its oldest entry dropped when it is full. */
function bounded<K, V>(m: Map<K, V>): Map<K, V> {
  if (m.size >= MAX_ENTRIES) m.delete(m.keys().next().value as K);
  return m;
}
