/**
 * Intake: the readers push rows into one SourceSink per source (command-line order) and the rows
 * are kept in typed columns with interned strings (PointStore, LineStore), never as one JS object
 * per address. Rows the index cannot use are counted per source and reason.
 */
import { COORD_SCALE, NAMES_US } from '../../../engine/index/format.ts';
import type { AdminArea, Place, PostcodeEntry } from '../../source-types.ts';
import { countReject, emptyCounts, type SourceCounts, type SourceSink } from '../../source-sink.ts';
import { encodeNames } from '../encode-names.ts';
import type { StringInterner } from '../interner.ts';
import { LineStore } from '../line-store.ts';
import { PointStore, packCountry } from '../point-store.ts';
import type { StringKeys } from '../string-keys.ts';

export interface SourceSummary { label: string; counts: SourceCounts }

/** The rows of all sources, as the later stages read them. */
export class Intake {
  /** Dropped (undefined) once the street documents are built: the points' columns are the build's largest. */
  points: PointStore | undefined = new PointStore();
  readonly lines = new LineStore();
  readonly places: Place[] = [];
  readonly postcodes: PostcodeEntry[] = [];
  readonly admins: AdminArea[] = [];
  readonly sources: SourceSummary[] = [];
  /** The previous row's strings and ids: consecutive rows mostly share street, city, postcode. */
  private readonly last = { street: '', streetId: 0, city: '', cityId: 0, postcode: '', postcodeId: 0, hn: '', hnId: 0 };
  private readonly S: StringInterner;
  private readonly keys: StringKeys;

  constructor(S: StringInterner, keys: StringKeys) {
    this.S = S;
    this.keys = keys;
  }

  /** Rows taken so far, all kinds (for progress). */
  get rowCount(): number {
    let n = this.places.length + this.postcodes.length + this.admins.length + this.lines.count + (this.points?.count ?? 0);
    for (const s of this.sources) for (const r of Object.values(s.counts.rejected)) n += r;
    return n;
  }

  /** Sources that gave at least one address point. */
  get addressSources(): number {
    return this.sources.filter((s) => s.counts.addresses > 0).length;
  }

  /** Starts a source (sources come in command-line order: the first wins duplicates). */
  source(label: string): SourceSink {
    if (this.sources.length >= 255) throw new Error('at most 255 sources in one build');
    const src = this.sources.length;
    const counts = emptyCounts();
    this.sources.push({ label, counts });
    const reject = (reason: string, line?: number) => countReject(counts, reason, line);
    const S = this.S;
    const L = this.last;
    return {
      address: (a) => {
        const P = this.points;
        if (!P) throw new Error('the builder has already built');
        if (!Number.isFinite(a.lat) || !Number.isFinite(a.lon) || Math.abs(a.lat) > 90 || Math.abs(a.lon) > 180) return reject('bad-coordinates');
        if (!a.street || !a.street.trim()) return reject('no-street');
        if (!a.housenumber || !a.housenumber.trim()) return reject('no-housenumber');
        const hn = a.housenumber === L.hn ? L.hnId : (L.hn = a.housenumber, L.hnId = S.intern(a.housenumber));
        if (this.keys.houseNumber(hn) === 0) return reject('bad-housenumber');
        counts.addresses++;
        P.lat.push(Math.round(a.lat * COORD_SCALE));
        P.lon.push(Math.round(a.lon * COORD_SCALE));
        P.country.push(packCountry(a.country));
        P.street.push(a.street === L.street ? L.streetId : (L.street = a.street, L.streetId = S.intern(a.street)));
        P.hn.push(hn);
        P.postcode.push(a.postcode === L.postcode ? L.postcodeId : (L.postcode = a.postcode, L.postcodeId = S.intern(a.postcode)));
        P.city.push(a.city === L.city ? L.cityId : (L.city = a.city, L.cityId = S.intern(a.city)));
        P.district.push(a.district ? S.intern(a.district) : 0);
        P.unit.push(a.unit ? S.intern(a.unit) : 0);
        P.alt.push(a.altCities && a.altCities.length ? S.intern(a.altCities.join(NAMES_US)) : 0);
        P.source.push(src);
      },
      line: (l) => {
        if (!l.name || l.coords.length < 2) return reject(l.name ? 'no-geometry' : 'no-name');
        counts.lines++;
        this.lines.add(S.intern(l.name), l.names ? S.intern(encodeNames(l.names)) : 0, l.coords);
      },
      place: (p) => {
        if (!p.name || !Number.isFinite(p.lat) || !Number.isFinite(p.lon)) return reject(p.name ? 'bad-coordinates' : 'no-name');
        counts.places++;
        this.places.push({ ...p });
      },
      postcode: (p) => {
        if (!p.code || !Number.isFinite(p.lat) || !Number.isFinite(p.lon)) return reject(p.code ? 'bad-coordinates' : 'no-postcode');
        counts.postcodes++;
        this.postcodes.push({ ...p });
      },
      admin: (a) => {
        counts.admins++;
        this.admins.push({ ...a });
      },
      reject,
    };
  }
}
