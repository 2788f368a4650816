/**
 * Child process of scale.test.ts: streams N synthetic address points (many streets in many
 * towns, as a country has) through the builder into an index file, then prints one JSON line
 * with the counts, heap and RSS. Run under a small --max-old-space-size to prove the build keeps
 * its rows outside the JS heap.
 * `node --max-old-space-size=512 test/data/build/scale-child.ts N OUT_DIR TMP_DIR`
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { IndexBuilder } from '../../../src/data/index-builder.ts';
import { openIndex } from '../../../src/engine/index/index.ts';
import { loadIndexFile } from '../../../src/data/index-file.ts';
import type { AddressPoint } from '../../../src/data/source-types.ts';

const [nArg, out, tmp, namesArg] = process.argv.slice(2);
/** Town names recur every `names` towns (towns lie 8–11 km apart): same street, same city name, other place. */
const cityNames = Number(namesArg ?? 5000);
const n = Number(nArg);
const b = new IndexBuilder({ tmpDir: tmp });
const sink = b.source('synthetic:scale');
const words = ['Rue', 'Avenue', 'Chemin', 'Impasse', 'Allée', 'Route', 'Place', 'Boulevard'];
const names = ['des Lilas', 'de la Gare', 'du Moulin', 'Victor Hugo', 'Jean Jaurès', 'de l’Église', 'des Écoles', 'Pasteur', 'du Stade', 'de la Mairie'];
const a: AddressPoint = { country: 'FR', street: '', housenumber: '', postcode: '', city: '', district: '', lat: 0, lon: 0 };
let heapMax = 0;
for (let i = 0; i < n; i++) {
  const town = i % 5000;
  const street = (i >>> 3) % 4000;
  a.city = `Ville ${town % cityNames}`;
  a.postcode = String(10000 + town * 7);
  a.street = `${words[street % 8]} ${names[(street >>> 3) % 10]} ${street >>> 6}`;
  a.housenumber = String(1 + ((i * 7) % 300)) + (i % 17 === 0 ? 'bis' : '');
  a.lat = 43 + (town % 70) * 0.1 + (i % 100) * 1e-5;
  a.lon = -1 + Math.floor(town / 70) * 0.1 + (street % 50) * 1e-4;
  sink.address(a);
  if ((i & 0xfffff) === 0) heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
}
mkdirSync(out!, { recursive: true });
const r = b.writeTo(join(out!, 'index.bin'));
heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
const idx = openIndex(await loadIndexFile(out!));
console.log(JSON.stringify({
  addresses: idx.c.addrLat.length, docs: idx.docCount, bytes: r.bytes, peakTempBytes: r.peakTempBytes,
  heapMax, rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024,
}));
