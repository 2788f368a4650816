/**
 * The string table of one PrimitiveBlock: strings decoded lazily (most are never looked at), tags
 * built only for the elements that carry a key the current pass cares about. Nothing here outlives
 * the block.
 */
import type { PrimitiveBlock } from './proto.ts';

export type Tags = Record<string, string>;

const utf8 = new TextDecoder();

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

  /** A flag per string-table entry: 1 where the entry is one of `keys`. */
  flags(keys: ReadonlySet<string>): Uint8Array {
    const f = new Uint8Array(this.raw.length);
    for (let i = 0; i < this.raw.length; i++) {
      const b = this.raw[i]!;
      // keys of interest are short ASCII: compare lengths first, decode only candidates
      if (b.length <= 24 && keys.has(this.get(i))) f[i] = 1;
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
