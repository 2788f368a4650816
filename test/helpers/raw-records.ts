/**
 * A file batch's raw records as the file job's reader hands them to the worker loop: the records'
 * bytes back to back, their bounds, and 1-based positions.
 */
export function rawRecords(texts: Array<string | Buffer>): { bytes: Uint8Array; bounds: Uint32Array; positions: number[] } {
  const parts = texts.map((t) => (typeof t === 'string' ? Buffer.from(t, 'utf8') : t));
  const bounds = new Uint32Array(2 * parts.length);
  let at = 0;
  parts.forEach((p, i) => {
    bounds[2 * i] = at;
    at += p.length;
    bounds[2 * i + 1] = at;
  });
  return { bytes: new Uint8Array(Buffer.concat(parts)), bounds, positions: texts.map((_, i) => i + 1) };
}
