/**
 * Time-ordered request ids: UUIDv7 (RFC 9562), written with node:crypto only.
 *
 * Layout: 48-bit Unix milliseconds | version 7 | 12-bit counter | variant 10 | 62 random bits.
 * Within one millisecond the 12-bit field is a counter started at a random value below 2048, so
 * ids made by one process sort in creation order even when many are made per millisecond
 * (RFC 9562, section 6.2, method 1). If the counter overflows, the timestamp is advanced by one.
 * The random bits come from the CSPRNG in blocks (one `randomFillSync` per 8 KiB, about 800 ids), not one
 * call per id: the same bits, a fraction of the cost on the request path.
 */
import { randomFillSync } from 'node:crypto';

let lastMs = -1;
let counter = 0;

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Random bytes drawn ahead; each is used once. */
const pool = Buffer.alloc(8192);
let used = pool.length;

/** `n` fresh random bytes' offset in `pool`. */
function take(n: number): number {
  if (used + n > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const at = used;
  used += n;
  return at;
}

/** A random counter start below 2048 (RFC 9562 method 1 leaves room to count up). */
function counterStart(): number {
  const at = take(2);
  return ((pool[at]! << 8) | pool[at + 1]!) & 0x7ff;
}

export function newRequestId(now: number = Date.now()): string {
  let ms = Math.floor(now);
  if (ms <= lastMs) {
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      ms = lastMs + 1;
      counter = counterStart();
    }
  } else {
    counter = counterStart();
  }
  lastMs = ms;
  // 48-bit big-endian timestamp (exact in doubles up to 2^53).
  const hi = Math.floor(ms / 0x1000000); // upper 24 bits
  const lo = ms % 0x1000000; // lower 24 bits
  const r = take(8); // bytes 8..15: variant and 62 random bits
  return HEX[(hi >>> 16) & 0xff]! + HEX[(hi >>> 8) & 0xff]! + HEX[hi & 0xff]! + HEX[(lo >>> 16) & 0xff]! + '-'
    + HEX[(lo >>> 8) & 0xff]! + HEX[lo & 0xff]! + '-'
    + HEX[0x70 | ((counter >>> 8) & 0x0f)]! + HEX[counter & 0xff]! + '-'
    + HEX[0x80 | (pool[r]! & 0x3f)]! + HEX[pool[r + 1]!]! + '-'
    + HEX[pool[r + 2]!]! + HEX[pool[r + 3]!]! + HEX[pool[r + 4]!]! + HEX[pool[r + 5]!]! + HEX[pool[r + 6]!]! + HEX[pool[r + 7]!]!;
}

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isRequestId(s: string): boolean {
  return UUID7.test(s);
}

/** The millisecond timestamp embedded in a UUIDv7. */
export function requestIdTime(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
