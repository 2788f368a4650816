/**
 * Set "states by name" (issue 18's last gap): every first-level subdivision of the 34 destinations
 * in the pinned subdivision table (src/engine/lookup/record/subdivision-names.generated.ts: CLDR's
 * names and address-formatting's), queried by its local name (address-formatting's `default` name
 * in conf/state_codes.yaml, ../shared/data/address-formatting), its English name (CLDR) and each of
 * its other-language names, alone and (local and English) followed by the country's name. Taken
 * whole, no sampling; split by the id's hash like every people set. Nothing is filtered on the
 * engine's answers.
 *
 * Truth: the states that bear the name (a name several states share expects any of them; with the
 * country, those of the country). Right = the answer's state is one of them (by state_code, or by
 * state_name in its country: score.ts), and either it
 * has no city or its city is the state's namesake (one of the state's names, or it with words
 * added: `Wien` for Wien, `Bruxelles` for Bruxelles-Capitale, `Madrid` for the Comunidad de
 * Madrid). A city the state is not named after (`Île-de-France` → Paris) is wrong.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { sharedDataPath } from '../../../src/config/shared-data.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { countryName } from '../../../src/engine/lookup/parse/countries.ts';
import { SUBDIVISION_CODES, SUBDIVISION_NAMES } from '../../../src/engine/lookup/record/subdivision-names.generated.ts';
import { makeCase, type PeopleCase, type StateTruth } from './cases.ts';
import { LOCAL_LANG } from './places.ts';

interface StateNames { code: string; cc: string; local: string; english: string; others: string[] }

const clean = (s: string) => s.trim();

function stateNames(): StateNames[] {
  const yaml = parseYaml(readFileSync(sharedDataPath('address-formatting', 'conf', 'state_codes.yaml'), 'utf8')) as Record<string, Record<string, string | Record<string, string>>>;
  const codes = SUBDIVISION_CODES.split(' ');
  const rows = Object.entries(SUBDIVISION_NAMES).map(([lang, packed]) => [lang, packed.split('|')] as const);
  const wanted = new Set<string>(SUPPORTED_DESTINATIONS);
  const out: StateNames[] = [];
  codes.forEach((code, i) => {
    const cc = code.slice(0, 2);
    if (!wanted.has(cc)) return;
    const v = yaml[cc]?.[code.slice(3)];
    const local = clean((typeof v === 'string' ? v : v?.default) ?? '');
    const english = clean(rows.find(([l]) => l === 'en')?.[1][i] ?? '');
    const seen = new Set([foldText(local), foldText(english)]);
    const others: string[] = [];
    for (const [lang, names] of rows) {
      const n = clean(names[i] ?? '');
      if (lang === 'en' || !n || seen.has(foldText(n))) continue;
      seen.add(foldText(n));
      others.push(n);
    }
    out.push({ code, cc, local, english, others });
  });
  return out;
}

export function stateCases(): PeopleCase[] {
  const states = stateNames();
  // folded name → the states that bear it
  const byName = new Map<string, StateNames[]>();
  for (const s of states) {
    for (const n of new Set([s.local, s.english, ...s.others].filter(Boolean).map(foldText))) {
      const l = byName.get(n) ?? [];
      l.push(s);
      byName.set(n, l);
    }
  }
  const truth = (name: string, cc: string): StateTruth => {
    const bearers = (byName.get(foldText(name)) ?? []).filter((s) => !cc || s.cc === cc);
    return { kind: 'state', codes: bearers.map((s) => s.code), names: bearers.flatMap((s) => [s.local, s.english, ...s.others].filter(Boolean)) };
  };
  const out: PeopleCase[] = [];
  for (const s of states) {
    const qs: [string, string, string][] = []; // pattern, query, country given
    if (s.local) {
      qs.push(['local name', s.local, '']);
      qs.push(['local name, country', `${s.local}, ${countryName(s.cc, LOCAL_LANG[s.cc] ?? 'en')}`, s.cc]);
      // as exports and search boxes write the country: its ISO code (added 2026-11-27, before the engine read it)
      qs.push(['local name, country code', `${s.local}, ${s.cc}`, s.cc]);
    }
    if (s.english && foldText(s.english) !== foldText(s.local)) {
      qs.push(['English name', s.english, '']);
      qs.push(['English name, country', `${s.english}, ${countryName(s.cc, 'en')}`, s.cc]);
    }
    for (const n of s.others) qs.push(['other-language name', n, '']);
    for (const [pattern, q, cc] of qs) {
      const name = cc ? q.slice(0, q.lastIndexOf(',')) : q;
      out.push(makeCase('states', `${s.code}:${pattern}:${q}`, s.cc, pattern, { address: q }, truth(name, cc)));
    }
    // its name and its code after it, as Australian and Canadian addresses and lists write a state
    // (`Tasmania TAS`, `Bayern BY`): the code's second part when it is letters; the state itself is
    // expected (added 2026-11-28, its rule fixed before its first run)
    const suffix = s.code.slice(3);
    if (s.local && /^[A-Z]{2,3}$/.test(suffix)) {
      const q = `${s.local} ${suffix}`;
      const own = truth(s.local, s.cc);
      out.push(makeCase('states', `${s.code}:local name, state code:${q}`, s.cc, 'local name, state code', { address: q }, { ...own, codes: [s.code] }));
    }
  }
  return out;
}
