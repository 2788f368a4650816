/**
 * The embedded default layer (assets/default-layer/default-layer.tsv.br, made by
 * scripts/gen-default-layer.ts from GeoNames cities500 and GeoNames postal codes, CC BY 4.0):
 * places and postcodes of the 34 destination countries with their ISO 3166-2 state and county.
 * Streamed into a SourceSink; one reused object per kind.
 *
 * File: Brotli-compressed UTF-8 lines. `#S` rows `id TAB ISO-code TAB name`, `#K` rows
 * `id TAB county`, then per country `#C CC` places `name lat lon population type(c|t|v) state
 * county altnames(|) names(lang:name|…, lang=name shown only) seat` (seat: 1 capital, 2 first-level seat, 3 second-level
 * seat) and `#P CC` postcodes `code place dlat dlon state county`, where an empty
 * code repeats the row before, dlat/dlon are 1e-4 degree steps from the row before and an empty
 * state/county repeats the row before.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliDecompress } from 'node:zlib';
import { promisify } from 'node:util';
import type { SourceSink } from '../source-sink.ts';
import type { Place, PostcodeEntry } from '../source-types.ts';

export const DEFAULT_LAYER_ATTRIBUTION = 'Default layer: GeoNames (geonames.org) cities500 and postal codes, CC BY 4.0; place names per language: Unicode CLDR (Unicode licence)';

export function defaultLayerPath(): string {
  return fileURLToPath(new URL('../../../assets/default-layer/default-layer.tsv.br', import.meta.url));
}

const TYPES: Record<string, string> = { c: 'city', t: 'town', v: 'village' };

/**
 * `de:Prag|el:Πράγα|fr=Vienne` → names { de: 'Prag', el: 'Πράγα' } (CLDR's names of the place per
 * language, matched and shown) and display names { fr: 'Vienne' } (shown for `locale` only: `=`).
 */
function namesOf(field: string, sep: string): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const part of field.split('|')) {
    const i = part.search(/[:=]/);
    if (i > 0 && part[i] === sep) (out ??= {})[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}

interface State { code: string; suffix: string; name: string }

export async function readDefaultLayer(sink: SourceSink, path = defaultLayerPath()): Promise<void> {
  const text = (await promisify(brotliDecompress)(await readFile(path))).toString('utf8');
  const states: State[] = [{ code: '', suffix: '', name: '' }];
  const counties: string[] = [''];
  let section = '', cc = '';
  const place: Place = { country: '', name: '', altNames: [], names: undefined, displayNames: undefined, seat: 0, lat: 0, lon: 0, population: 0, type: '', state: '', stateCode: '', county: '' };
  const pc: PostcodeEntry = { country: '', code: '', place: '', state: '', stateCode: '', county: '', lat: 0, lon: 0 };
  let code = '', lat = 0, lon = 0, st = 0, co = 0;
  const postcode = (place: string) => {
    const s = states[st] ?? states[0]!;
    pc.country = cc;
    pc.code = code;
    pc.place = place;
    pc.lat = lat / 1e4;
    pc.lon = lon / 1e4;
    pc.state = s.name;
    pc.stateCode = s.code;
    pc.county = counties[co] ?? '';
    if (!Number.isFinite(pc.lat) || !Number.isFinite(pc.lon)) sink.reject('bad-coordinates');
    else sink.postcode(pc);
  };
  let start = 0;
  const P = new LineFields(text);
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const lineStart = start;
    start = end + 1;
    if (end === lineStart) continue;
    if (section === '#P' && text.charCodeAt(lineStart) !== 35 /* # */) {
      // postcode rows, most of the file: read in place, no line or field strings but the names
      P.line(lineStart, end);
      if (P.next() && P.fe > P.fs) code = P.str();
      const place = P.next() ? P.str() : '';
      lat += P.next() ? P.num() : NaN;
      lon += P.next() ? P.num() : NaN;
      if (P.next() && P.fe > P.fs) st = P.num();
      if (P.next() && P.fe > P.fs) co = P.num();
      postcode(place);
      continue;
    }
    const line = text.slice(lineStart, end);
    if (line.charCodeAt(0) === 35 /* # */) {
      const [tag, arg] = line.split(' ');
      section = tag!;
      cc = arg ?? '';
      code = ''; lat = 0; lon = 0; st = 0; co = 0;
      continue;
    }
    const f = line.split('\t');
    switch (section) {
      case '#S': states[Number(f[0])] = { code: f[1]!, suffix: f[1] ? f[1].slice(3) : '', name: f[2] ?? '' }; break;
      case '#K': counties[Number(f[0])] = f[1] ?? ''; break;
      case '#C': {
        const s = states[Number(f[5] || 0)] ?? states[0]!;
        place.country = cc;
        place.name = f[0]!;
        place.lat = Number(f[1]);
        place.lon = Number(f[2]);
        place.population = Number(f[3]) || 0;
        place.type = TYPES[f[4]!] ?? 'village';
        place.state = s.name;
        place.stateCode = s.code;
        place.county = counties[Number(f[6] || 0)] ?? '';
        place.altNames = f[7] ? f[7].split('|') : [];
        place.names = f[8] ? namesOf(f[8], ':') : undefined;
        place.displayNames = f[8] ? namesOf(f[8], '=') : undefined;
        place.seat = Number(f[9] || 0);
        if (!Number.isFinite(place.lat) || !Number.isFinite(place.lon)) { sink.reject('bad-coordinates'); break; }
        sink.place(place);
        break;
      }
      default: sink.reject('unknown-section');
    }
  }
}

/**
 * The tab-separated fields of one line of `text`, read in place: after `next()` the field is
 * [fs, fe); `str()` and `num()` read it as `split('\t')` and `Number()` would.
 */
class LineFields {
  private readonly text: string;
  private pos = 0;
  private end = 0;
  fs = 0;
  fe = 0;
  constructor(text: string) {
    this.text = text;
  }

  line(start: number, end: number): void {
    this.pos = start;
    this.end = end;
  }

  /** Moves to the next field; false when the line has no more. */
  next(): boolean {
    if (this.pos > this.end) return false;
    this.fs = this.pos;
    let e = this.text.indexOf('\t', this.pos);
    if (e < 0 || e > this.end) e = this.end;
    this.fe = e;
    this.pos = e + 1;
    return true;
  }

  str(): string {
    return this.text.slice(this.fs, this.fe);
  }

  /** Number() of the field: a plain integer is read from its digits, anything else by Number itself. */
  num(): number {
    const t = this.text;
    let i = this.fs;
    const neg = t.charCodeAt(i) === 45; /* - */
    if (neg) i++;
    if (i === this.fe || this.fe - i > 15) return Number(this.str());
    let v = 0;
    for (; i < this.fe; i++) {
      const d = t.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return Number(this.str());
      v = v * 10 + d;
    }
    return neg ? -v : v;
  }
}
