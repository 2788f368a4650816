/**
 * `addrflow index build --out DIR [--osm F.osm.pbf]… [--bano F.csv.gz]… [--openaddresses F.csv]…
 *  [--geonames-postcodes F]…`: builds an immutable, versioned address index into DIR.
 */
import { parseArgs } from 'node:util';
import type { Command } from '../main.ts';
import { UsageError } from '../main.ts';
import { buildIndex } from '../../data/build-index.ts';
import { writeIndexDir } from '../../data/index-file.ts';
import { createLogger } from '../../log.ts';

const usage = `usage: addrflow index build --out DIR [--osm FILE.osm.pbf]… [--bano FILE.csv[.gz]]…
                           [--openaddresses FILE.csv]… [--geonames-postcodes FILE]…

Builds an address index into DIR (DIR/index.bin + DIR/meta.json). The default layer
(GeoNames places and postal codes of the 34 destinations, CC BY 4.0, assets/default-layer)
is always included.`;

const command: Command = {
  summary: 'build an address index from OSM PBF, BANO, OpenAddresses and GeoNames files',
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== 'build') throw new UsageError(`unknown subcommand '${sub ?? ''}'`);
    const { values } = parseArgs({
      args: rest,
      options: {
        out: { type: 'string' },
        osm: { type: 'string', multiple: true },
        bano: { type: 'string', multiple: true },
        openaddresses: { type: 'string', multiple: true },
        'geonames-postcodes': { type: 'string', multiple: true },
      },
      strict: true,
    });
    if (!values.out) throw new UsageError('--out DIR is required');
    const log = createLogger();
    const { bytes, stats } = await buildIndex({
      osm: values.osm ?? [], bano: values.bano ?? [], openaddresses: values.openaddresses ?? [],
      geonamesPostcodes: values['geonames-postcodes'] ?? [],
    });
    await writeIndexDir(values.out, bytes);
    log.info({ out: values.out, ...stats }, 'index built');
    process.stderr.write(`index written to ${values.out}: ${stats.bytes} bytes, ${stats.addressPoints} address points, read ${(stats.readMs / 1000).toFixed(1)} s, build ${(stats.buildMs / 1000).toFixed(1)} s\n`);
    return 0;
  },
};
export default command;
