/**
 * UTF-16 input transcoded to UTF-8 before the splitter (src/csv/utf16.ts): LE and BE, by
 * byte-order mark or given, chunks cut anywhere (odd bytes, surrogate pairs split); and the hint
 * a header in another encoding gets (src/csv/decode.ts encodingHint).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { utf16ToUtf8 } from '../../src/csv/utf16.ts';
import { encodingHint, parseEncodingOption } from '../../src/csv/decode.ts';

function utf16(text: string, form: 'le' | 'be', bom: boolean): Buffer {
  const le = Buffer.from((bom ? '\ufeff' : '') + text, 'utf16le');
  return form === 'le' ? le : Buffer.from(le).swap16();
}

async function* chunks(b: Buffer, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const c of [...new Set(cuts)].filter((x) => x > 0 && x < b.length).sort((x, y) => x - y)) {
    yield Buffer.from(b.subarray(at, c));
    at = c;
  }
  yield Buffer.from(b.subarray(at));
}

async function read(b: Buffer, cuts: number[], given?: 'utf-16le' | 'utf-16be'): Promise<{ form: string | undefined; text: string }> {
  const r = await utf16ToUtf8(chunks(b, cuts), given);
  const out: Buffer[] = [];
  for await (const c of r.chunks) out.push(Buffer.from(c));
  return { form: r.form, text: Buffer.concat(out).toString('utf8') };
}

const SAMPLE = 'id\tstreet\tcity\r\n1\tStraße 😀 "Ost"\tKøbenhavn\r\n2\t\u4e2d\u6587\t\u0645\u0635\u0631\r\n';

describe('UTF-16 to UTF-8', () => {
  it('a byte-order mark (LE or BE) is recognised and dropped; cut between any two bytes', async () => {
    for (const form of ['le', 'be'] as const) {
      const b = utf16(SAMPLE, form, true);
      for (let cut = 0; cut <= b.length; cut++) {
        expect(await read(b, [cut, cut + 1, cut + 3])).toEqual({ form: `utf-16${form}`, text: SAMPLE });
      }
    }
  });

  it('without a mark: read when given, passed through untouched when not', async () => {
    expect(await read(utf16(SAMPLE, 'le', false), [5], 'utf-16le')).toEqual({ form: 'utf-16le', text: SAMPLE });
    expect(await read(utf16(SAMPLE, 'be', false), [6], 'utf-16be')).toEqual({ form: 'utf-16be', text: SAMPLE });
    const utf8 = Buffer.from(SAMPLE);
    const r = await utf16ToUtf8(chunks(utf8, [1]), undefined);
    const out: Buffer[] = [];
    for await (const c of r.chunks) out.push(Buffer.from(c));
    expect(r.form).toBeUndefined();
    expect(Buffer.concat(out).equals(utf8)).toBe(true);
    expect(await read(Buffer.alloc(0), [])).toEqual({ form: undefined, text: '' });
  });

  it('any text, any chunking: the same characters back', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom('le', 'be'), fc.array(fc.nat(200), { maxLength: 6 }), async (text, form, cuts) => {
      expect((await read(utf16(text, form as 'le' | 'be', true), cuts)).text).toBe(text);
    }), { numRuns: 200 });
  });
});

describe('a header in another encoding gets a hint', () => {
  it('names --encoding utf-16le / utf-16be for NUL bytes, windows-1252 for bytes that are not UTF-8', () => {
    expect(encodingHint(Buffer.from('id,street', 'utf16le'))).toMatch(/UTF-16 LE.*--encoding utf-16le/);
    expect(encodingHint(Buffer.from('id,street', 'utf16le').swap16())).toMatch(/UTF-16 BE.*--encoding utf-16be/);
    expect(encodingHint(Buffer.from('id,Straße', 'latin1'))).toMatch(/--encoding windows-1252/);
    expect(encodingHint(Buffer.from('id,Straße'))).toBeUndefined();
    expect(parseEncodingOption('UTF-16LE')).toBe('utf-16le');
    expect(parseEncodingOption('utf16be')).toBe('utf-16be');
  });
});
