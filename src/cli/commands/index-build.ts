/**
 * `addrflow index build --out DIR [--osm F.osm.pbf]… [--bano F.csv.gz]… [--openaddresses F.csv]…
 *  [--geonames-postcodes F]… [--tmp-dir DIR]`: builds an immutable, versioned address index into
 * DIR, streaming every source through the builder. Prints progress (a live line on a terminal,
 * log lines otherwise), then a summary per source with rejected rows per reason.
 */
import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { buildIndexDir, summaryLines, type SourceFile, type SourceKind } from '../../data/build-index.ts';
import { ProgressReporter } from '../../data/build/progress.ts';
import { createLogger } from '../../log.ts';
import { oneOf } from '../options.ts';
import { checkWritableDir } from '../../adapters/file/output-check.ts';

const usage = `usage: addrflow index build --out DIR [--osm FILE.osm.pbf]… [--bano FILE.csv[.gz]]…
                           [--ban adresses-france.csv[.gz]]…
                           [--openaddresses FILE.csv[.gz]|FILE.geojson[.gz]]… [--geonames-postcodes FILE]…
                           [--tmp-dir DIR] [--progress auto|off]

Builds an address index into DIR (DIR/index.bin + DIR/meta.json). The default layer
(GeoNames places and postal codes of the 34 destinations, CC BY 4.0, assets/default-layer)
is always included.
--ban reads the BAN national file (adresses-france.csv, ';'); --openaddresses reads
OpenAddresses CSV or GeoJSON lines; both plain or gzip. Rows that cannot be used are counted
per source and reason; a source that yields no address is an error naming the file and why.
The same address in two sources (same country, street, number, postcode, within 100 m) is
kept once; the source given first on the command line wins each field it has.
--tmp-dir holds the build's spilled columns and OSM node ids (default: the system temp dir);
the peak is printed.
Progress: a live line on a terminal, a log line every 10 s otherwise; --progress off for none.`;

const FLAGS: Record<string, SourceKind> = {
  osm: 'osm', bano: 'bano', ban: 'ban', openaddresses: 'openaddresses', 'geonames-postcodes': 'geonames-postcodes',
};

const command: Command = {
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== 'build') throw new UsageError(sub === undefined ? 'say build: addrflow index build --out DIR …' : `unknown subcommand '${sub}': the only one is build`);
    const { values, tokens } = parseArgs({
      args: rest,
      options: {
        out: { type: 'string' },
        osm: { type: 'string', multiple: true },
        bano: { type: 'string', multiple: true },
        ban: { type: 'string', multiple: true },
        openaddresses: { type: 'string', multiple: true },
        'geonames-postcodes': { type: 'string', multiple: true },
        'tmp-dir': { type: 'string' },
        progress: { type: 'string', default: 'auto' },
      },
      strict: true,
      tokens: true,
    });
    if (!values.out) throw new UsageError('--out DIR is required');
    oneOf('progress', values.progress, ['auto', 'off']);
    // a missing or read-only --out is said now, not after reading every source
    checkWritableDir(values.out, `--out ${values.out}`);
    // the files in command-line order: the first source wins duplicates
    const files: SourceFile[] = [];
    for (const t of tokens ?? []) {
      if (t.kind === 'option' && t.name in FLAGS && t.value) files.push({ kind: FLAGS[t.name]!, path: t.value });
    }
    const log = createLogger();
    const tty = Boolean(process.stderr.isTTY);
    const progress = values.progress === 'off' ? undefined : new ProgressReporter({ tty });
    // a build error (IndexBuildError, a full device) reaches main: one coded line (src/cli/fault.ts)
    const r = await buildIndexDir(values.out, { files }, { tmpDir: values['tmp-dir'] ?? tmpdir(), progress });
    log.info({ out: values.out, bytes: r.bytes, addressPoints: r.addressPoints, duplicatesMerged: r.duplicatesMerged, peakTempBytes: r.peakTempBytes, readMs: Math.round(r.readMs), buildMs: Math.round(r.buildMs) }, 'index built');
    const mb = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
    process.stderr.write([
      ...summaryLines(r.sources),
      `duplicates merged across sources: ${r.duplicatesMerged}`,
      `index written to ${values.out}: ${mb(r.bytes)}, ${r.addressPoints} address points (${r.addressRows} rows read), read ${(r.readMs / 1000).toFixed(1)} s, build ${(r.buildMs / 1000).toFixed(1)} s, peak temporary disk ${mb(r.peakTempBytes)}`,
    ].join('\n') + '\n');
    return 0;
  },
};
export default command;
