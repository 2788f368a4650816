/**
 * A batch's output bytes (src/adapters/file/worker/utf8-out.ts): rows encoded as UTF-8 one by
 * one, each followed by its line end, into a buffer of the batch's own that grows as needed.
 */
import { describe, expect, it } from 'vitest';
import { Utf8Out } from '../../../../src/adapters/file/worker/utf8-out.ts';

describe('Utf8Out', () => {
  it('holds the rows as UTF-8, each with its line end, byte for byte what encoding the joined text gives', () => {
    const rows = ['{"a":"x"}', 'Mariahilfer Straße 1', 'Łódź', 'ΑΘΗΝΑ', '東京都', '😀 emoji', '', 'lone \ud800 surrogate'];
    for (const lineEnd of ['\n', '\r\n']) {
      const out = new Utf8Out(16); // small: it must grow several times
      for (const r of rows) out.addLine(r, lineEnd);
      const bytes = out.take();
      expect(Buffer.from(bytes).equals(Buffer.from(rows.map((r) => r + lineEnd).join(''), 'utf8'))).toBe(true);
      expect(bytes.byteLength).toBe(out.length);
    }
  });

  it('gives a view over a buffer of its own, so it can be moved to another thread', () => {
    const out = new Utf8Out();
    out.addLine('x', '\n');
    const bytes = out.take();
    expect(bytes.byteOffset).toBe(0);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
    expect(bytes.buffer.byteLength).toBe(0); // detached: moved, not copied
    port1.close();
    port2.close();
  });

  it('grows for a row far larger than its buffer', () => {
    const out = new Utf8Out(1024);
    const big = 'é'.repeat(100_000);
    out.addLine('a', '\n');
    out.addLine(big, '\n');
    expect(Buffer.from(out.take()).toString('utf8')).toBe(`a\n${big}\n`);
  });
});
