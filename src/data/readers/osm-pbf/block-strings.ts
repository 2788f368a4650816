/**
 * The string table of one PrimitiveBlock: strings decoded lazily (most are never looked at), tags
 * built only for the elements that carry a key the current pass cares about. Nothing here outlives
 * the block.
 */
import type { PrimitiveBlock } from './proto.ts';

export type Tags = Record<string, string>;

const utf8 = new TextDecoder();

/** Keys of interest, pre-encoded for byte comparison against a string table. */
export interface KeySet {
  names: ReadonlySet<string>;
  encoded: Uint8Array[];
  /** lengths[n] = 1 when some key is n bytes long */
  lengths: Uint8Array;
}

export function keySet(names: Iterable<string>): KeySet {
  const set = new Set(names);
  const encoded = [...set].map((k) => new TextEncoder().encode(k));
  const lengths = new Uint8Array(256);
  for (const e of encoded) lengths[e.length] = 1;
  return { names: set, encoded, lengths };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class BlockStrings {
  private readonly raw: Uint8Array[];
  private readonly cache: (string | undefined)[];

  constructor(block: PrimitiveBlock) {
    this.raw = block.stringtable?.s ?? [];
    this.cache = new Array<string | undefined>(this.raw.length);
  }

  get(i: number): string {
    let s = this.cache[i];
    if (s === undefined) {
      const b = this.raw[i];
      s = b ? utf8.decode(b) : '';
      this.cache[i] = s;
    }
    return s;
  }

  /**
   * A flag per string-table entry: 1 where the entry is one of `keys`. Compares bytes (length
   * first), so the many strings of a block that are no key of interest are never decoded.
   */
  flags(keys: KeySet): Uint8Array {
    const f = new Uint8Array(this.raw.length);
    const { encoded, lengths } = keys;
    for (let i = 0; i < this.raw.length; i++) {
      const b = this.raw[i]!;
      if (!lengths[b.length]) continue;
      for (const k of encoded) if (k.length === b.length && sameBytes(k, b)) { f[i] = 1; break; }
    }
    return f;
  }

  /** Tags of a way, relation or non-dense node (parallel key and value index arrays). */
  tags(keys: readonly number[], vals: readonly number[]): Tags {
    const t: Tags = {};
    const n = Math.min(keys.length, vals.length);
    for (let i = 0; i < n; i++) t[this.get(keys[i]!)] = this.get(vals[i]!);
    return t;
  }

  /** Tags of the dense node whose (key, value, …, 0) run starts at `start` in keys_vals. */
  denseTags(kv: readonly number[], start: number): Tags {
    const t: Tags = {};
    for (let i = start; i + 1 < kv.length && kv[i] !== 0; i += 2) t[this.get(kv[i]!)] = this.get(kv[i + 1]!);
    return t;
  }
}

/** Whether any of the element's keys is flagged. */
export function hasFlaggedKey(flags: Uint8Array, keys: readonly number[]): boolean {
  for (let i = 0; i < keys.length; i++) if (flags[keys[i]!]) return true;
  return false;
}
