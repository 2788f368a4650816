/**
 * BANO / BAN CSV (OpenStreetMap France): `id,numero,voie,code_post,nom_comm,source,lat,lon`,
 * no header (BANO), or the BAN header form with named columns (numero, suffixe, nom_voie,
 * code_postal, nom_commune, lat, lon).
 */
import { readTextLines, splitCsv, parsePosition } from './lines.ts';
import { emptyBatch, type SourceBatch } from '../source-types.ts';

export async function readBano(path: string): Promise<SourceBatch> {
  const b = emptyBatch();
  let header: Map<string, number> | undefined;
  let first = true;
  for await (const line of readTextLines(path)) {
    if (!line) continue;
    const sep = first && line.includes(';') && !line.includes(',') ? ';' : ',';
    const f = splitCsv(line, sep);
    if (first) {
      first = false;
      if (f.includes('numero') || f.includes('nom_voie')) {
        header = new Map(f.map((n, i) => [n, i]));
        continue;
      }
    }
    if (header) {
      const g = (n: string) => f[header!.get(n) ?? -1] ?? '';
      const at = parsePosition(g('lat'), g('lon'));
      if (!at) continue;
      b.addresses.push({
        country: 'FR', street: g('nom_voie'), housenumber: `${g('numero')}${g('suffixe')}`,
        postcode: g('code_postal'), city: g('nom_commune'), district: '', ...at,
      });
      continue;
    }
    if (f.length < 8) continue;
    const at = parsePosition(f[6], f[7]);
    if (!at) continue;
    b.addresses.push({
      country: 'FR', street: f[2]!, housenumber: f[1]!, postcode: f[3]!, city: f[4]!, district: '', ...at,
    });
  }
  return b;
}
