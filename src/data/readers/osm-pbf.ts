/**
 * OpenStreetMap PBF reader (decoding by the npm package osm-pbf-parser; nothing hand-decoded).
 * Emits: address points (nodes; ways and relations at the area-weighted centroid of their
 * largest outer ring; addr:interpolation ways expanded between their end points), named
 * highways with geometry, place nodes, and administrative boundaries assembled into rings.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { emptyBatch, type AddressPoint, type SourceBatch } from '../source-types.ts';
import { ringArea, ringCentroid, meanPoint } from '../geo.ts';
import { interpolateAddresses } from './interpolation.ts';

const require = createRequire(import.meta.url);
const parseOSM = require('osm-pbf-parser') as () => NodeJS.ReadWriteStream;

type Tags = Record<string, string>;
interface OsmNode { type: 'node'; id: number; lat: number; lon: number; tags: Tags }
interface OsmWay { type: 'way'; id: number; tags: Tags; refs: number[] }
interface OsmRelation { type: 'relation'; id: number; tags: Tags; members: { type: string; id?: number; ref?: number; role: string }[] }
type OsmItem = OsmNode | OsmWay | OsmRelation | { type: string };

const PLACE_TYPES = new Set(['city', 'town', 'village', 'hamlet', 'suburb', 'locality', 'neighbourhood', 'quarter', 'isolated_dwelling', 'borough']);

function localNames(tags: Tags): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const [k, v] of Object.entries(tags)) {
    const m = /^name:([a-z]{2})$/.exec(k);
    if (m) (out ??= {})[m[1]!] = v;
  }
  return out;
}

function countryTag(tags: Tags): string {
  const c = (tags['addr:country'] ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(c) ? c : '';
}

export async function readOsmPbf(path: string): Promise<SourceBatch> {
  const b = emptyBatch();
  const nodeIdx = new Map<number, number>();
  const coords: number[] = [];
  const wayRefs = new Map<number, number[]>();
  const addrNodes = new Map<number, AddressPoint>();
  const wayCoords = (refs: number[]): number[] => {
    const out: number[] = [];
    for (const r of refs) {
      const i = nodeIdx.get(r);
      if (i !== undefined) out.push(coords[i]!, coords[i + 1]!);
    }
    return out;
  };
  const address = (tags: Tags, lat: number, lon: number): AddressPoint => ({
    country: countryTag(tags),
    street: tags['addr:street'] || tags['addr:place'] || '',
    housenumber: tags['addr:housenumber'] ?? '',
    postcode: tags['addr:postcode'] ?? '',
    city: (tags['addr:city'] ?? '').replace(/\s*\((FL|LI)\)\s*$/, ''),
    district: tags['addr:suburb'] ?? '',
    lat, lon,
  });

  const handle = (e: OsmItem): void => {
    if (e.type === 'node') {
      const n = e as OsmNode;
      nodeIdx.set(n.id, coords.length);
      coords.push(n.lon, n.lat);
      const t = n.tags;
      if (!t) return;
      if (t['addr:housenumber']) {
        const a = address(t, n.lat, n.lon);
        b.addresses.push(a);
        addrNodes.set(n.id, a);
      }
      if (t.place && PLACE_TYPES.has(t.place) && t.name) {
        const names = localNames(t);
        b.places.push({
          country: countryTag(t), name: t.name, lat: n.lat, lon: n.lon,
          population: Number(t.population) || 0, type: t.place, ...(names ? { names } : {}),
        });
      }
    } else if (e.type === 'way') {
      const w = e as OsmWay;
      wayRefs.set(w.id, w.refs);
      const t = w.tags ?? {};
      if (t.highway && t.name) {
        const names = localNames(t);
        b.lines.push({ name: t.name, coords: Float64Array.from(wayCoords(w.refs)), ...(names ? { names } : {}) });
      }
      if (t['addr:housenumber']) {
        const c = wayCoords(w.refs);
        if (c.length >= 2) {
          const closed = w.refs.length > 3 && w.refs[0] === w.refs[w.refs.length - 1];
          const [lat, lon] = closed ? ringCentroid(c.slice(0, -2)) : meanPoint(c);
          b.addresses.push(address(t, lat, lon));
        }
      }
      if (t['addr:interpolation']) b.addresses.push(...interpolateAddresses(w.refs, wayCoords(w.refs), addrNodes, t['addr:interpolation']));
    } else if (e.type === 'relation') {
      const r = e as OsmRelation;
      const t = r.tags ?? {};
      const isAdmin = t.boundary === 'administrative' && t.admin_level && t.name;
      if (!isAdmin && !t['addr:housenumber']) return;
      const outer = r.members
        .filter((m) => m.type === 'way' && (m.role === 'outer' || m.role === ''))
        .map((m) => wayRefs.get((m.ref ?? m.id)!))
        .filter((x): x is number[] => !!x);
      const rings = assembleRings(outer).map((ring) => wayCoords(ring)).filter((c) => c.length >= 8);
      if (rings.length === 0) return;
      if (t['addr:housenumber']) {
        const largest = rings.reduce((a, c) => (ringArea(c) > ringArea(a) ? c : a));
        const [lat, lon] = ringCentroid(largest.slice(0, -2));
        b.addresses.push(address(t, lat, lon));
      }
      if (isAdmin) {
        let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
        for (const c of rings) for (let i = 0; i < c.length; i += 2) {
          minLon = Math.min(minLon, c[i]!); maxLon = Math.max(maxLon, c[i]!);
          minLat = Math.min(minLat, c[i + 1]!); maxLat = Math.max(maxLat, c[i + 1]!);
        }
        const iso = t['ISO3166-2'] ?? '';
        const names = localNames(t);
        b.admins.push({
          country: (t['ISO3166-1'] ?? iso.split('-')[0] ?? '').toUpperCase(), level: Number(t.admin_level) || 0,
          name: t.name!, iso, rings: rings.map((c) => Float64Array.from(c)), bbox: [minLon, minLat, maxLon, maxLat],
          ...(names ? { names } : {}),
        });
      }
    }
  };

  await new Promise<void>((resolve, reject) => {
    const s = createReadStream(path).pipe(parseOSM());
    s.on('data', (items: OsmItem[]) => { for (const e of items) handle(e); });
    s.on('end', () => resolve());
    s.on('error', reject);
  });
  return b;
}

/** Joins ways (node-id lists) into closed rings; open leftovers are dropped. */
export function assembleRings(ways: number[][]): number[][] {
  const rest = ways.filter((w) => w.length >= 2).map((w) => [...w]);
  const rings: number[][] = [];
  while (rest.length > 0) {
    let ring = rest.pop()!;
    let grown = true;
    while (ring[0] !== ring[ring.length - 1] && grown) {
      grown = false;
      const end = ring[ring.length - 1]!;
      for (let i = 0; i < rest.length; i++) {
        const w = rest[i]!;
        if (w[0] === end) ring = ring.concat(w.slice(1));
        else if (w[w.length - 1] === end) ring = ring.concat(w.slice(0, -1).reverse());
        else continue;
        rest.splice(i, 1);
        grown = true;
        break;
      }
    }
    if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
  }
  return rings;
}
