/**
 * Time-ordered request ids: UUIDv7 (RFC 9562), written with node:crypto only.
 *
 * Layout: 48-bit Unix milliseconds | version 7 | 12-bit counter | variant 10 | 62 random bits.
 * Within one millisecond the 12-bit field is a counter started at a random value below 2048, so
 * ids made by one process sort in creation order even when many are made per millisecond
 * (RFC 9562, section 6.2, method 1). If the counter overflows, the timestamp is advanced by one.
 */
import { randomBytes } from 'node:crypto';

let lastMs = -1;
let counter = 0;

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function newRequestId(now: number = Date.now()): string {
  let ms = Math.floor(now);
  if (ms <= lastMs) {
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      ms = lastMs + 1;
      counter = randomBytes(2).readUInt16BE(0) & 0x7ff;
    }
  } else {
    counter = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  lastMs = ms;
  const b = randomBytes(16);
  // 48-bit big-endian timestamp (exact in doubles up to 2^53).
  const hi = Math.floor(ms / 0x1000000); // upper 24 bits
  const lo = ms % 0x1000000; // lower 24 bits
  b[0] = (hi >>> 16) & 0xff;
  b[1] = (hi >>> 8) & 0xff;
  b[2] = hi & 0xff;
  b[3] = (lo >>> 16) & 0xff;
  b[4] = (lo >>> 8) & 0xff;
  b[5] = lo & 0xff;
  b[6] = 0x70 | ((counter >>> 8) & 0x0f);
  b[7] = counter & 0xff;
  b[8] = 0x80 | (b[8]! & 0x3f);
  let s = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
    s += HEX[b[i]!];
  }
  return s;
}

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isRequestId(s: string): boolean {
  return UUID7.test(s);
}

/** The millisecond timestamp embedded in a UUIDv7. */
export function requestIdTime(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
