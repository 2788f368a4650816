import { describe, expect, it } from 'vitest';
import { digestsEqual, generateLicense, hashSecret, LICENSE_ALPHABET } from '../../src/billing/secrets.ts';
import pino from 'pino';
import { Writable } from 'node:stream';
import { loggerOptions } from '../../src/log.ts';

describe('account secrets', () => {
  it('licenses are 5 × 5 characters of the alphabet, uniformly spread', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const l = generateLicense();
      expect(l).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$/);
      for (const c of l.replaceAll('-', '')) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...LICENSE_ALPHABET].sort().join(''));
    const expected = (4000 * 25) / 32;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.1);
  });
  it('hashes depend on pepper and kind; digests compare equal only when equal', () => {
    const a = hashSecret('p1', 'guid', 'x');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret('p2', 'guid', 'x')).not.toBe(a);
    expect(hashSecret('p1', 'license', 'x')).not.toBe(a);
    expect(digestsEqual(a, hashSecret('p1', 'guid', 'x'))).toBe(true);
    expect(digestsEqual(a, hashSecret('p1', 'guid', 'y'))).toBe(false);
    expect(digestsEqual(a, 'abcd')).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });
  it('the logger redacts license and guid wherever the HTTP adapter or billing could log them', () => {
    let out = '';
    const sink = new Writable({ write(c, _e, cb) { out += c; cb(); } });
    const log = pino(loggerOptions({ level: 'info' }), sink);
    log.info({ license: 'L1CEN-SE000-00000-00000-00000', guid: 'g-1' }, 'a');
    log.info({ req: { body: { license: 'L2CEN-SE000-00000-00000-00000', guid: 'g-2' } } }, 'b');
    log.info({ credentials: { license: 'L3CEN-SE000-00000-00000-00000', guid: 'g-3' } }, 'c');
    expect(out).not.toMatch(/L[123]CEN|g-[123]/);
    expect(out.match(/\[redacted\]/g)?.length).toBe(6);
  });
});
