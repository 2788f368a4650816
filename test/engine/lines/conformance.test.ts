/**
 * Conformance over the OpenCage test cases of the 34 destinations (mapping and comparison in
 * opencage-conformance.ts; `npm run eval:lines` prints the same table). Every case either matches
 * (same lines, ignoring letter case and runs of spaces) or is listed below with the postal rule or
 * mapping limit that causes the deviation. A regression (a match turning into a deviation, or a
 * deviation changing its reasons) fails, and so does a fix that is not recorded here.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeWithSharedData } from '../../helpers/shared-data.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { EXPECTED_DEVIATIONS } from './expected-deviations.ts';
import { TESTCASE_PARTS, classify, loadCases, runCase, summarise, type CaseResult, type DeviationReason } from './opencage-conformance.ts';


describeWithSharedData('OpenCage conformance, 34 destinations', TESTCASE_PARTS, () => {
  // Loaded in beforeAll so that a skipped suite (data absent) never reads the files.
  let results: CaseResult[] = [];
  beforeAll(() => {
    results = loadCases().map(runCase);
  });

  it('reads the 132 cases of the 34 destinations', () => {
    expect(results.length).toBe(132);
    expect(new Set(results.map((r) => r.case.cc))).toEqual(new Set(SUPPORTED_DESTINATIONS));
  });

  it('every deviation is listed with its reasons, every listed case still deviates', () => {
    const actual: Record<string, DeviationReason[]> = {};
    for (const r of results) {
      const reasons = classify(r);
      if (reasons.length > 0) actual[r.case.id] = reasons;
    }
    const expected = Object.fromEntries(Object.entries(EXPECTED_DEVIATIONS).map(([k, v]) => [k, v.reasons]));
    expect(actual).toEqual(expected);
  });

  it('per-country match counts', () => {
    const table = Object.fromEntries(summarise(results).map((s) => [s.cc, `${s.match}/${s.cases}`]));
    expect(table).toMatchInlineSnapshot(`
      {
        "AR": "0/1",
        "AT": "1/2",
        "AU": "4/6",
        "BE": "3/4",
        "BG": "0/1",
        "BR": "1/5",
        "CA": "0/9",
        "CH": "1/1",
        "CY": "0/1",
        "CZ": "0/1",
        "DE": "5/20",
        "DK": "1/2",
        "EE": "0/1",
        "ES": "0/4",
        "FI": "0/1",
        "FR": "2/16",
        "GB": "1/17",
        "GR": "1/1",
        "HR": "0/1",
        "HU": "0/2",
        "IE": "1/8",
        "IT": "1/7",
        "LI": "1/1",
        "LT": "0/1",
        "LU": "0/1",
        "LV": "0/1",
        "MT": "0/1",
        "NL": "0/4",
        "PL": "2/3",
        "PT": "0/3",
        "RO": "0/1",
        "SE": "2/2",
        "SI": "1/1",
        "SK": "1/2",
      }
    `);
  });

  it('no matching case is listed, and a status 0 deviation never has an empty block', () => {
    for (const r of results) {
      if (r.match) expect(EXPECTED_DEVIATIONS[r.case.id], r.case.id).toBeUndefined();
      if (r.record.addresslinestatuscode === 0) expect(r.actual.length).toBeGreaterThan(0);
    }
  });
});
