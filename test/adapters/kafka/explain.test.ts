/**
 * `addrflow consume --explain` against the real broker (issue 18): the real binary as a child
 * process, Avro search requests in, search-result v2 out with each answer's explanation; a
 * worker without the flag on the same requests writes v1 results, with no explanation. The
 * explained worker's log (at debug level) holds no explanation and none of the input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { loadSchemas } from '../../../src/adapters/kafka/avro/schemas.ts';
import { describeWithKafka } from '../../helpers/kafka.ts';
import { consumeArgs, launchConsume } from './consume-process.ts';
import {
  codec, createAccount, createTopics, decodeResult, openHarness, produce, readAll, startWorker, waitForCommitted, type InputRecord,
} from './worker-harness.ts';

const schemas = loadSchemas();
const V1 = schemas.version('search-result', 1)!.fingerprint;
const V2 = schemas.version('search-result', 2)!.fingerprint;
const dir = mkdtempSync(join(tmpdir(), 'addrflow-kexplain-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const REQUESTS = [
  { city: 'Muenchen', zip: '80331' },
  { address: 'Vwqxstrasse 5, 10117 Berlin' },
  { city: 'Paris', zip: '75008', country: 'FR' },
];
const records = (tag: string): InputRecord[] => REQUESTS.map((r, i) => ({
  key: `${tag}-${i}`, op: 'search', expect: 'result', value: codec.encode('search-request', r),
}));

await describeWithKafka('consume --explain', (brokers) => {
  it('writes search-result v2 with the explanation; without the flag, v1 and none', async () => {
    const h = await openHarness(brokers());
    try {
      const db = `sqlite:${join(dir, 'billing.sqlite')}`;
      const account = await createAccount(db, 1_000_000);
      const explained = await createTopics(h, 'explain', 1);
      await produce(h, explained.input, records('e'));
      const group = `g-${h.run}-explain`;
      const w = await launchConsume(consumeArgs(brokers(), explained, group, db, account, ['--op', 'search', '--explain']), { ADDRFLOW_LOG_LEVEL: 'debug' }, children);
      await waitForCommitted(h, group, explained.input, 120_000);
      const out = await readAll(h, explained.results, { minCount: REQUESTS.length });
      w.child.kill('SIGTERM');
      const done = await w.done;
      expect(done.code, done.stderr.slice(-2000)).toBe(0);
      expect(out).toHaveLength(REQUESTS.length);
      for (const m of out) expect(m.value!.readBigUInt64LE(2)).toBe(V2);
      const byKey = new Map(out.map((m) => [m.key, decodeResult(m).result]));
      const munich = byKey.get('e-0')!;
      expect(munich.city).toBe('München');
      expect((munich.explain as { parts: unknown[] }).parts).toContainEqual(expect.objectContaining({ input: 'Muenchen', status: 'corrected', became: 'München' }));
      const unknown = byKey.get('e-1')!.explain as { parts: Array<{ input: string; status: string }>; deductions: unknown[] };
      expect(unknown.parts).toContainEqual(expect.objectContaining({ input: 'Vwqxstrasse', status: 'ignored' }));
      expect(unknown.deductions.length).toBeGreaterThan(0);
      // never logged
      expect(w.stderr().length).toBeGreaterThan(0);
      expect(w.stderr()).not.toMatch(/Vwqx|vwqx|Muenchen|deductions/);

      // the same requests without --explain: v1, no explanation
      const plain = await createTopics(h, 'plain', 1);
      await produce(h, plain.input, records('p'));
      const pw = await startWorker({ brokers: brokers(), topics: plain, group: `g-${h.run}-plain`, db, account, op: 'search' });
      try {
        await waitForCommitted(h, `g-${h.run}-plain`, plain.input, 120_000);
      } finally {
        await pw.stop();
      }
      const pout = await readAll(h, plain.results, { minCount: REQUESTS.length });
      expect(pout).toHaveLength(REQUESTS.length);
      for (const m of pout) {
        expect(m.value!.readBigUInt64LE(2)).toBe(V1);
        expect(decodeResult(m).result.explain).toBeUndefined();
      }
      // the records are the same, key by key, but for the explanation
      for (const m of pout) {
        const { explain: _e, ...rest } = byKey.get(m.key.replace(/^p/, 'e'))!;
        expect(decodeResult(m).result).toEqual(rest);
      }
    } finally {
      await h.close();
    }
  }, 300_000);
});
