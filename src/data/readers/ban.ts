/**
 * BAN, the Base Adresse Nationale: the current French national address file
 * `adresses-france.csv` and its per-département files `adresses-NN.csv`, plain or `.csv.gz`
 * (https://adresse.data.gouv.fr/data/ban/adresses/latest/csv/). The format is documented in the
 * schema "Adresses au format CSV" of adresse.data.gouv.fr
 * (https://github.com/BaseAdresseNationale/adresse.data.gouv.fr, public/schemas/adresses-csv.md):
 * UTF-8, `;`-separated, RFC 4180 quoting, one header row
 *   id;id_fantoir;numero;rep;nom_voie;code_postal;code_insee;nom_commune;
 *   code_insee_ancienne_commune;nom_ancienne_commune;x;y;lon;lat;type_position;alias;nom_ld;
 *   libelle_acheminement;nom_afnor;source_position;source_nom_voie;certification_commune;
 *   cad_parcelles
 * Columns are found by name, so added or reordered columns do not break the reader.
 *
 * The house number is `numero` with its repetition index `rep` (`12 bis`, `3a`); the city is
 * `nom_commune`, and `libelle_acheminement` (the postal delivery name) and `nom_ancienne_commune`
 * (the pre-merger commune people still write) are other names it is found by. `numero` 99999 is
 * BAN's placeholder for a named place without numbering: not an address point.
 */
import { readCsvFile } from '../../csv/reader.ts';
import type { ReaderProgress, SourceReader, SourceSink } from '../source-sink.ts';
import type { AddressPoint } from '../source-types.ts';
import { positionOf } from './position.ts';

const REQUIRED = ['numero', 'nom_voie', 'code_postal', 'nom_commune', 'lon', 'lat'] as const;

export const readBan: SourceReader = async (path: string, sink: SourceSink, progress?: ReaderProgress) => {
  let col: Record<string, number> = {};
  let width = 0;
  const a: AddressPoint = { country: 'FR', street: '', housenumber: '', postcode: '', city: '', district: '', lat: 0, lon: 0 };
  await readCsvFile(path, { delimiter: ';', header: true, ...(progress ? { progress } : {}) }, {
    onHeader(fields) {
      const names = fields.map((f) => f.trim().toLowerCase());
      const missing = REQUIRED.filter((r) => !names.includes(r));
      if (missing.length) {
        throw new Error(`${path}: not a BAN addresses CSV (adresses-france.csv): the header has no ${missing.join(', ')} column (header: ${fields.slice(0, 8).join(';')}…)`);
      }
      col = Object.fromEntries(names.map((n, i) => [n, i]));
      width = Math.max(...REQUIRED.map((r) => col[r]!)) + 1;
    },
    onRow(f) {
      if (f.length < width) return sink.reject('short-row');
      const at = positionOf(f[col.lat!], f[col.lon!]);
      if (typeof at === 'string') return sink.reject(at);
      const numero = f[col.numero!]!.trim();
      if (numero === '' || numero === '99999') return sink.reject('no-housenumber');
      const street = f[col.nom_voie!]!.trim();
      if (street === '') return sink.reject('no-street');
      const rep = col.rep === undefined ? '' : f[col.rep]!.trim();
      const city = f[col.nom_commune!]!.trim();
      a.street = street;
      a.housenumber = rep === '' ? numero : rep.length === 1 ? numero + rep : `${numero} ${rep}`;
      a.postcode = f[col.code_postal!]!.trim();
      a.city = city;
      a.lat = at.lat;
      a.lon = at.lon;
      const alt: string[] = [];
      for (const k of ['nom_ancienne_commune', 'libelle_acheminement']) {
        const v = col[k] === undefined ? '' : (f[col[k]!] ?? '').trim();
        const low = v.toLowerCase();
        if (v && low !== city.toLowerCase() && !alt.some((x) => x.toLowerCase() === low)) alt.push(v);
      }
      if (alt.length) a.altCities = alt;
      else delete a.altCities;
      sink.address(a);
    },
    onProblem(problem, _record, line) {
      sink.reject(problem, line);
    },
  });
};
