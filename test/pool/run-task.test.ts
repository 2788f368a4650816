import { describe, expect, it } from 'vitest';
import { runTask } from '../../src/pool/run-task.ts';
import { CHARGEABLE, OK, type RawResult } from '../../src/pool/tasks.ts';

function raw(texts: string[]) {
  const bytes = Buffer.from(texts.join(''), 'utf8');
  const bounds = new Uint32Array(2 * texts.length);
  let at = 0;
  texts.forEach((t, i) => {
    bounds[2 * i] = at;
    at += Buffer.byteLength(t);
    bounds[2 * i + 1] = at;
  });
  return { bytes: new Uint8Array(bytes), bounds, positions: texts.map((_, i) => i + 1) };
}

describe('runTask (raw)', () => {
  const lines = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '1', zip: '10115', city: 'Berlin' };

  it('isolates an engine failure to its record: 500 in that slot, the rest processed', () => {
    // A search without an index makes processElement throw: the stand-in for an engine defect.
    const r = runTask({ ctx: {} }, { kind: 'raw', op: 'search', unit: 'line', ...raw([JSON.stringify({ id: 'a', city: 'Berlin' })]) }) as RawResult;
    expect(JSON.parse(r.output)).toEqual({ id: 'a', errorcode: 500, errormessage: expect.stringMatching(/^Line 1: An unexpected condition/) });
    expect(r.flags[0]).toBe(0);
    expect(r.codes[0]).toBe(500);
    const ok = runTask({ ctx: {} }, { kind: 'raw', op: 'lines', unit: 'line', ...raw([JSON.stringify(lines), JSON.stringify({ ...lines, zip: 'x' })]) }) as RawResult;
    const out = ok.output.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out[0].addresslinestatuscode).toBe(0);
    expect(out[1].addresslinestatuscode).toBe(31);
    expect([...ok.flags]).toEqual([OK | CHARGEABLE, OK]);
    expect([...ok.codes]).toEqual([0, 31]);
  });

  it('sends rejected records to the errors text with their position when asked', () => {
    const r = runTask({ ctx: {} }, { kind: 'raw', op: 'lines', unit: 'element', separateErrors: true, ...raw([JSON.stringify(lines), '{"countrycode":"DE"}', 'nope']) }) as RawResult;
    expect(r.output.trimEnd().split('\n')).toHaveLength(1);
    expect(r.errors.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([
      { element: 2, errorcode: 428, errormessage: expect.stringContaining('sendercountrycode') },
      { element: 3, errorcode: 412, errormessage: expect.stringMatching(/^Element 3: not valid JSON/) },
    ]);
  });
});

describe('runTask (elements)', () => {
  it('confines an engine failure to its element: a 500 outcome there, the others processed', () => {
    const lines = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '1', zip: '10115', city: 'Berlin' };
    const search = runTask({ ctx: {} }, { kind: 'elements', op: 'search', elements: [{ city: 'Berlin' }, { city: 'x'.repeat(300) }] });
    expect(search).toEqual({
      outcomes: [
        { ok: false, error: { errorcode: 500, errormessage: expect.stringMatching(/^An unexpected condition/) } },
        { ok: false, error: { errorcode: 412, errormessage: expect.stringContaining("'city'") } },
      ],
    });
    const ok = runTask({ ctx: {} }, { kind: 'elements', op: 'lines', elements: [lines] }) as { outcomes: Array<{ ok: boolean }> };
    expect(ok.outcomes[0]!.ok).toBe(true);
  });
});
