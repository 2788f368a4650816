/**
 * The spec's HTTP contract, through real HTTP against a real server on 127.0.0.1 (random port),
 * real billing (SQLite file) and the real engine pool (chooseEngine fails the suite when the pool
 * cannot start; the stand-in runs only where a test needs a failing engine or a tiny body limit).
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../../src/contract/errors.ts';
import { CREDENTIAL_PARAMS, LINES_PARAMS, MAX_BATCH_ELEMENTS, OPTION_PARAMS, SEARCH_PARAMS, type Op, type ParamDef } from '../../../src/contract/params.ts';
import { LINES_RECORD_KEYS, SEARCH_RECORD_KEYS } from '../../../src/contract/records.ts';
import { isRequestId } from '../../../src/billing/request-id.ts';
import { chooseEngine, standInRunner, startTestServer, type EngineChoice, type TestServer } from '../../helpers/http-server.ts';

const engine: EngineChoice = await chooseEngine();
const ENGINE_NOTE = '[engine: real pool]';
const searchRuns = engine.searchReady;
const SEARCH_SKIP = `search on the real engine — SKIPPED: ${engine.reason ?? ''}`;

const xml = new XMLParser({ trimValues: false, parseTagValue: false, processEntities: true, htmlEntities: true, ignoreDeclaration: true, isArray: (name, jpath) => jpath === 'responses.response' });

const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };
const LINES_RECORD = {
  addressline1: 'Hauptstraße 5', addressline2: '10115 Berlin', addressline3: '', addressline4: '', addressline5: '', addressline6: '',
  addresslinestatuscode: 0, addresslinestatusmessage: 'OK',
};
const SEARCH_OK = { city: 'Berlin', street: 'Unter den Linden', housenumber: '1', country: 'DEU' };

let ts: TestServer;
let creds: { license: string; guid: string; account: string };
const seen: Array<{ status: number; acao: string | null }> = [];

interface Res { status: number; headers: Headers; text: string; json(): any }

async function raw(path: string, init: { method?: string; body?: string | Uint8Array; contentType?: string | null } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (init.contentType !== null) headers['content-type'] = init.contentType ?? 'application/x-www-form-urlencoded';
  const res = await fetch(ts.url + path, { method: init.method ?? 'POST', headers, ...(init.body !== undefined ? { body: init.body } : {}) });
  const text = await res.text();
  seen.push({ status: res.status, acao: res.headers.get('access-control-allow-origin') });
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

function form(fields: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
}

async function call(op: Op, fields: Record<string, unknown>, c: { license: string; guid: string } = creds): Promise<Res> {
  return raw(`/address/${op}`, { body: form({ license: c.license, guid: c.guid, ...fields }) });
}

async function newAccount(credits: number | 'unlimited', agreements: Op[] = ['search', 'lines']) {
  return ts.billing.createAccount(credits === 'unlimited' ? { unlimited: true, agreements } : { credits, agreements });
}

function expectError(r: Res, status: number, message?: RegExp | string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  const b = r.json();
  expect(Object.keys(b)).toEqual(['errorcode', 'errormessage']);
  expect(b.errorcode).toBe(status);
  expect(typeof b.errormessage).toBe('string');
  expect(b.errormessage.length).toBeGreaterThan(0);
  if (message) expect(b.errormessage).toMatch(message);
}

beforeAll(async () => {
  ts = await startTestServer({ runner: engine.runner, work: engine.singleWork });
  creds = await newAccount(10_000_000);
});
afterAll(async () => {
  await ts?.close();
  await engine.close();
});

describe(`HTTP contract ${ENGINE_NOTE}`, () => {
  describe('methods and paths', () => {
    for (const op of ['search', 'lines'] as const) {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        it(`${method} /address/${op} → 405 with Allow: POST and the error body`, async () => {
          const r = await raw(`/address/${op}`, { method, ...(method === 'GET' ? {} : { body: 'a=1' }) });
          expectError(r, 405);
          expect(r.headers.get('allow')).toBe('POST');
          expect(r.headers.get('access-control-allow-origin')).toBe('*');
        });
      }
      it(`HEAD /address/${op} → 405 with Allow: POST`, async () => {
        const r = await raw(`/address/${op}`, { method: 'HEAD' });
        expect(r.status).toBe(405);
        expect(r.headers.get('allow')).toBe('POST');
      });
      it(`a wrong method with a JSON body still gets 405 on /address/${op}, not 415`, async () => {
        const r = await raw(`/address/${op}`, { method: 'PUT', body: '{"a":1}', contentType: 'application/json' });
        expectError(r, 405);
      });
    }

    for (const path of ['/', '/address', '/address/', '/address/search/', '/address/Search', '/address/geocode', '/api/address/lines', '/healthz/x']) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        it(`${method} ${path} → 404 with the error body`, async () => {
          const r = await raw(path, { method, ...(method === 'GET' ? {} : { body: 'a=1' }) });
          expectError(r, 404, ERRORS.NOT_FOUND.message);
        });
      }
    }

    it('query strings do not change the route', async () => {
      const r = await raw('/address/lines?x=1', { body: form({ license: creds.license, guid: creds.guid, ...LINES_OK }) });
      expect(r.status).toBe(200);
      expectError(await raw('/address/lines?x=1', { method: 'GET' }), 405);
    });

    it('GET /healthz and GET /metrics answer outside the API paths; POST there is 404', async () => {
      const h = await raw('/healthz', { method: 'GET' });
      expect(h.status).toBe(200);
      expect(h.json()).toEqual({ status: 'ok', maintenance: false, store: 'ok' });
      const m = await raw('/metrics', { method: 'GET' });
      expect(m.status).toBe(200);
      expect(m.text).toContain('addrflow_http_request_duration_seconds');
      expect(m.text).toContain('addrflow_records_charged_total');
      expectError(await raw('/metrics', { method: 'POST', body: 'a=1' }), 404);
    });
  });

  describe('credentials (401, 412, 403)', () => {
    for (const op of ['search', 'lines'] as const) {
      const element = op === 'lines' ? LINES_OK : SEARCH_OK;
      it(`${op}: missing license, missing guid, both missing, or empty → 401`, async () => {
        expectError(await raw(`/address/${op}`, { body: form({ guid: creds.guid, ...element }) }), 401);
        expectError(await raw(`/address/${op}`, { body: form({ license: creds.license, ...element }) }), 401);
        expectError(await raw(`/address/${op}`, { body: form(element) }), 401);
        expectError(await raw(`/address/${op}`, { body: form({ license: '', guid: creds.guid, ...element }) }), 401);
        expectError(await raw(`/address/${op}`, { body: '', contentType: null }), 401);
      });
      it(`${op}: a well-formed but unknown license, a wrong guid, a disabled account → 401`, async () => {
        expectError(await call(op, element, { license: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', guid: creds.guid }), 401, ERRORS.UNAUTHORIZED.message);
        const other = await newAccount(1000);
        expectError(await call(op, element, { license: creds.license, guid: other.guid }), 401);
        const dis = await newAccount(1000);
        await ts.billing.setDisabled({ id: dis.account }, true);
        expectError(await call(op, element, dis), 401);
      });
      it(`${op}: an account without the ${op} agreement → 403`, async () => {
        const a = await newAccount(1000, op === 'lines' ? ['search'] : ['lines']);
        const r = await call(op, element, a);
        expectError(r, 403);
        expect(await ts.billing.store.ledgerCount(a.account)).toBe(0);
        expect(await ts.billing.balance(a.account)).toBe(1000);
      });
    }

    for (const def of CREDENTIAL_PARAMS) {
      it(`${def.name} at min−1 and max+1 length → 412; at min and max (shape-valid, unknown) → 401`, async () => {
        const good = { license: creds.license, guid: creds.guid };
        for (const [len, status] of [[def.min - 1, 412], [def.min, 401], [def.max, 401], [def.max + 1, 412]] as const) {
          const value = def.name === 'license' ? 'A'.repeat(len) : 'g'.repeat(len);
          const r = await call('lines', LINES_OK, { ...good, [def.name]: value });
          expectError(r, status);
        }
      });
    }

    it('the license and guid never reach the response', async () => {
      const r = await call('lines', { ...LINES_OK, requestproof: '1', returnavailablecredits: '1' });
      expect(r.text).not.toContain(creds.license);
      expect(r.text).not.toContain(creds.guid);
    });
  });

  describe('parameters at min−1, min, max, max+1', () => {
    const lengthCases = (def: ParamDef): Array<[unknown, number]> => {
      const v = (n: number) => 'abcdefghij'.repeat(26).slice(0, n);
      if (def.type === 'integer') return [[def.min - 1, 412], [def.min, 200], [def.max, 200], [def.max + 1, 412]];
      if (def.name === 'countrycode' || def.name === 'sendercountrycode') return [['D', 412], ['DE', 200], ['DE', 200], ['DEU', 412]];
      if (def.name === 'countrynamelanguage') return [['', 200], ['de', 200], ['deu', 412]];
      if (def.name === 'locale') return [['', 200], ['de-DE', 200], ['de-DEU', 412]];
      const out: Array<[unknown, number]> = [];
      if (def.min > 0) out.push([v(def.min - 1), 412]);
      out.push([v(def.min), 200], [v(def.max), 200], [v(def.max + 1), 412]);
      return out;
    };
    for (const def of LINES_PARAMS) {
      it(`lines: ${def.name} (${def.type}, ${def.min}–${def.max})`, async () => {
        for (const [value, status] of lengthCases(def)) {
          const r = await call('lines', { ...LINES_OK, [def.name]: String(value) });
          if (status === 200) expect(r.status, `${def.name}=${String(value)}`).toBe(200);
          else expectError(r, value === '' && def.required ? 428 : status);
        }
      });
    }
    for (const def of SEARCH_PARAMS) {
      it.skipIf(!searchRuns)(`search: ${def.name} (${def.min}–${def.max})`, async () => {
        for (const [value, status] of lengthCases(def)) {
          const r = await call('search', { ...SEARCH_OK, [def.name]: String(value) });
          if (status === 200) expect(r.status, `${def.name}=${String(value).length} chars`).toBe(200);
          else expectError(r, status, new RegExp(def.name));
        }
      });
    }
    for (const def of OPTION_PARAMS) {
      it(`common option ${def.name} (${def.min}–${def.max}) and its allowed values`, async () => {
        const cases: Array<[string, number]> = def.name === 'responseformat'
          ? [['js', 412], ['xml', 200], ['json', 200], ['jsonx', 412], ['abc', 412], ['XML', 200]]
          : [['', 200], ['1', 200], ['0', 200], ['11', 412], ['2', 412]];
        for (const [value, status] of cases) {
          const r = await call('lines', { ...LINES_OK, [def.name]: value });
          expect(r.status, `${def.name}=${value}`).toBe(status);
        }
      });
    }
    it('a mandatory parameter missing or empty → 428; given twice → 412; the right names in the message', async () => {
      const { countrycode: _c, ...noCountry } = LINES_OK;
      expectError(await call('lines', noCountry), 428, /countrycode/);
      expectError(await call('lines', { ...LINES_OK, sendercountrycode: '' }), 428, /sendercountrycode/);
      const body = form({ license: creds.license, guid: creds.guid, ...LINES_OK }) + '&city=Hamburg';
      expectError(await raw('/address/lines', { body }), 412, /city/);
    });
    it.skipIf(!searchRuns)('prefer_country (extension, issue 18): a destination code in an element or at the batch top level; anything else 412', async () => {
      const one = await call('search', { address: '3500', prefer_country: 'at' });
      expect(one.status).toBe(200);
      expect(one.json().country_iso_2).toBe('AT');
      expectError(await call('search', { address: '3500', prefer_country: 'XX' }), 412, /prefer_country/);
      const batch = await call('search', { prefer_country: 'BE', batch: [{ address: '3500' }, { address: '3500', prefer_country: 'AT' }] });
      expect(batch.status).toBe(200);
      expect(batch.json().map((r: { country_iso_2: string }) => r.country_iso_2)).toEqual(['BE', 'AT']);
      expectError(await call('search', { prefer_country: 'Germany', batch: [{ address: '3500' }] }), 412, /prefer_country/);
    });
    it('maxcharsperline must be an integer', async () => {
      expectError(await call('lines', { ...LINES_OK, maxcharsperline: '40.5' }), 412, /maxcharsperline/);
      expectError(await call('lines', { ...LINES_OK, maxcharsperline: 'forty' }), 412, /maxcharsperline/);
      expect((await call('lines', { ...LINES_OK, maxcharsperline: '40' })).status).toBe(200);
    });
    it('lengths count characters, not bytes: 255 × "ß" is valid, 256 is not', async () => {
      expect((await call('lines', { ...LINES_OK, city: 'ß'.repeat(255) })).status).toBe(200);
      expectError(await call('lines', { ...LINES_OK, city: 'ß'.repeat(256) }), 412);
      expect((await call('lines', { ...LINES_OK, street: '😀'.repeat(255) })).status).toBe(200);
    });
  });

  describe('records, prices, proof and balance', () => {
    it('lines: all keys in spec order, addresslinestatuscode an integer; 20 credits and one ledger entry', async () => {
      const a = await newAccount(100, ['lines']);
      const r = await call('lines', LINES_OK, a);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      const b = r.json();
      expect(Object.keys(b)).toEqual([...LINES_RECORD_KEYS]);
      expect(typeof b.addresslinestatuscode).toBe('number');
      expect([0, 1]).toContain(b.addresslinestatuscode);
      for (const k of LINES_RECORD_KEYS) if (k !== 'addresslinestatuscode') expect(typeof b[k]).toBe('string');
      expect(await ts.billing.balance(a.account)).toBe(80);
      const ledger = await ts.billing.ledger(a.account);
      expect(ledger).toHaveLength(1);
      expect(ledger[0]).toMatchObject({ account: a.account, function: 'lines', credits: 20 });
      // one account, one function, one job (the request), one record
      expect(ledger[0]!.id).toBe(`${a.account}/lines/http:${ledger[0]!.requestid}/0`);
    });

    it.skipIf(!searchRuns)('search: all keys in spec order, all strings; 27 credits even for no match', async () => {
      const a = await newAccount(100, ['search']);
      const r = await call('search', SEARCH_OK, a);
      expect(r.status).toBe(200);
      const b = r.json();
      expect(Object.keys(b)).toEqual([...SEARCH_RECORD_KEYS]);
      for (const k of SEARCH_RECORD_KEYS) expect(typeof b[k]).toBe('string');
      const nomatch = await call('search', { address: 'qqqqqqqqqq zzzzzzzzzz 99999999' }, a);
      expect(nomatch.status).toBe(200);
      expect(Object.keys(nomatch.json())).toEqual([...SEARCH_RECORD_KEYS]);
      expect(await ts.billing.balance(a.account)).toBe(100 - 27 - 27);
      expect(await ts.billing.store.ledgerCount(a.account)).toBe(2);
    });

    it('lines: a record with status other than 0/1 is returned with 200 and not charged (README item 6)', async () => {
      const a = await newAccount(100, ['lines']);
      const r = await call('lines', { ...LINES_OK, countrycode: 'XX' }, a);
      expect(r.status).toBe(200);
      const b = r.json();
      expect([0, 1]).not.toContain(b.addresslinestatuscode);
      expect(b.addresslinestatusmessage.length).toBeGreaterThan(0);
      expect(await ts.billing.balance(a.account)).toBe(100);
      expect(await ts.billing.store.ledgerCount(a.account)).toBe(0);
    });

    it('requestproof=1 adds requestid (UUIDv7, the ledger\'s request id); returnavailablecredits=1 adds the balance after the charge, as a string', async () => {
      const a = await newAccount(100, ['lines']);
      const r = await call('lines', { ...LINES_OK, requestproof: '1', returnavailablecredits: '1' }, a);
      const b = r.json();
      expect(Object.keys(b)).toEqual([...LINES_RECORD_KEYS, 'requestid', 'availablecredits']);
      expect(isRequestId(b.requestid)).toBe(true);
      expect(b.availablecredits).toBe('80');
      const ledger = await ts.billing.ledger(a.account);
      expect(ledger[0]!.requestid).toBe(b.requestid);
      const r2 = (await call('lines', { ...LINES_OK, requestproof: '1' }, a)).json();
      expect(r2.requestid > b.requestid).toBe(true); // time-ordered
      expect(r2).not.toHaveProperty('availablecredits');
      const r3 = (await call('lines', { ...LINES_OK, returnavailablecredits: '1', requestproof: '0' }, a)).json();
      expect(r3).not.toHaveProperty('requestid');
      expect(r3.availablecredits).toBe('40');
    });

    it('unlimited accounts report availablecredits "-1" and are never refused', async () => {
      const a = await newAccount('unlimited', ['lines']);
      const r = await call('lines', { ...LINES_OK, returnavailablecredits: '1' }, a);
      expect(r.json().availablecredits).toBe('-1');
      expect(await ts.billing.store.ledgerCount(a.account)).toBe(1);
    });

    it('402 in single mode when the balance is below the price; nothing charged', async () => {
      const a = await newAccount(19, ['lines', 'search']);
      expectError(await call('lines', LINES_OK, a), 402, ERRORS.INSUFFICIENT_CREDITS.message);
      if (searchRuns) expectError(await call('search', SEARCH_OK, a), 402);
      expect(await ts.billing.balance(a.account)).toBe(19);
      expect(await ts.billing.store.ledgerCount(a.account)).toBe(0);
      await ts.billing.topup({ id: a.account }, 1);
      expect((await call('lines', LINES_OK, a)).status).toBe(200);
      expect(await ts.billing.balance(a.account)).toBe(0);
    });

    it('an invalid element is answered 412/428 before the balance is checked', async () => {
      const a = await newAccount(0, ['lines']);
      expectError(await call('lines', { ...LINES_OK, zip: 'z'.repeat(51) }, a), 412);
      expectError(await call('lines', { countrycode: 'DE' }, a), 428);
      expectError(await call('lines', LINES_OK, a), 402);
    });
  });

  describe('batch mode', () => {
    it('one result per element, in order; mixed valid and invalid: errors in their slots, 200, only processed elements charged', async () => {
      const a = await newAccount(1000, ['lines']);
      const batch = [
        LINES_OK,
        { ...LINES_OK, zip: 'z'.repeat(51) },
        { sendercountrycode: 'DE' },
        { ...LINES_OK, countrycode: 'XX' },
        { ...LINES_OK, city: 'Köln', license: 'ignored', guid: 'ignored' },
      ];
      const r = await call('lines', { batch }, a);
      expect(r.status).toBe(200);
      const b = r.json();
      expect(b).toHaveLength(5);
      expect(Object.keys(b[0])).toEqual([...LINES_RECORD_KEYS]);
      expect(b[1]).toEqual({ errorcode: 412, errormessage: expect.stringMatching(/zip/) });
      expect(b[2]).toEqual({ errorcode: 428, errormessage: expect.stringMatching(/countrycode/) });
      expect([0, 1]).not.toContain(b[3].addresslinestatuscode);
      expect([0, 1]).toContain(b[4].addresslinestatuscode);
      // Charged: elements 0 and 4 (3 was processed but has a non-chargeable status).
      expect(await ts.billing.balance(a.account)).toBe(1000 - 40);
      const ids = (await ts.billing.ledger(a.account)).map((e) => e.id.split('/')[3]).sort();
      expect(ids).toEqual(['0', '4']);
    });

    it.skipIf(!searchRuns)('search batch: 27 per processed record (3 records 81)', async () => {
      const a = await newAccount(1000, ['search']);
      const r = await call('search', { batch: [SEARCH_OK, { city: 'Paris' }, { zip: '' }, { address: 'Hamburg' }] }, a);
      expect(r.status).toBe(200);
      const b = r.json();
      expect(b[2].errorcode).toBe(412);
      expect(await ts.billing.balance(a.account)).toBe(1000 - 81);
    });

    it('requestproof / returnavailablecredits per element, top-level values as defaults', async () => {
      const a = await newAccount(1000, ['lines']);
      const r = await call('lines', { requestproof: '1', batch: [LINES_OK, { ...LINES_OK, requestproof: '0', returnavailablecredits: '1' }] }, a);
      const b = r.json();
      expect(isRequestId(b[0].requestid)).toBe(true);
      expect(b[0]).not.toHaveProperty('availablecredits');
      expect(b[1]).not.toHaveProperty('requestid');
      expect(b[1].availablecredits).toBe('960');
    });

    it('5,000 elements are accepted and charged 5,000 × 20; 5,001 → 412 with nothing charged', async () => {
      const a = await newAccount(200_000, ['lines']);
      const batch = Array.from({ length: MAX_BATCH_ELEMENTS }, (_, i) => ({ ...LINES_OK, housenumber: String(i + 1) }));
      const r = await call('lines', { batch }, a);
      expect(r.status).toBe(200);
      const b = r.json();
      expect(b).toHaveLength(5000);
      expect(b.every((x: { addresslinestatuscode?: number }) => x.addresslinestatuscode === 0 || x.addresslinestatuscode === 1)).toBe(true);
      expect(await ts.billing.balance(a.account)).toBe(200_000 - 100_000);
      expect(await ts.billing.store.ledgerCount(a.account)).toBe(5000);
      const r2 = await call('lines', { batch: [...batch, LINES_OK] }, a);
      expectError(r2, 412, /5001 elements; at most 5000/);
      expect(await ts.billing.balance(a.account)).toBe(100_000);
    });

    it('whole-request errors: batch missing/empty → 428; malformed JSON, not an array, not objects, given twice → 412', async () => {
      expectError(await call('lines', { batch: '' }), 428, /batch/);
      expectError(await call('lines', { batch: '[]' }), 428, /batch/);
      expectError(await call('lines', { batch: '[{"countrycode":"DE",' }), 412, /not valid JSON/);
      expectError(await call('lines', { batch: '{"countrycode":"DE"}' }), 412, /array/);
      expectError(await call('lines', { batch: '[1,2]' }), 412, /element 0 is not an object/);
      expectError(await call('lines', { batch: '[{"countrycode":"DE","sendercountrycode":"DE"},[]]' }), 412, /element 1/);
      expectError(await call('lines', { batch: 'null' }), 412);
      const body = form({ license: creds.license, guid: creds.guid, batch: [LINES_OK] }) + '&batch=' + encodeURIComponent(JSON.stringify([LINES_OK]));
      expectError(await raw('/address/lines', { body }), 412, /more than once/);
    });

    it('whole-request errors: 401, 403, 402 (price × valid records > balance) with nothing charged', async () => {
      const batch = [LINES_OK, LINES_OK, LINES_OK, LINES_OK, LINES_OK, LINES_OK];
      expectError(await call('lines', { batch }, { license: creds.license, guid: 'g'.repeat(36) }), 401);
      const noAgree = await newAccount(1000, ['search']);
      expectError(await call('lines', { batch }, noAgree), 403);
      const a = await newAccount(100, ['lines']);
      expectError(await call('lines', { batch }, a), 402);
      expect(await ts.billing.balance(a.account)).toBe(100);
      expect(await ts.billing.store.ledgerCount(a.account)).toBe(0);
      // Five valid + one invalid fits exactly: only valid records count towards the price.
      const r = await call('lines', { batch: [...batch.slice(0, 5), { countrycode: 'DE' }] }, a);
      expect(r.status).toBe(200);
      expect(await ts.billing.balance(a.account)).toBe(0);
      expect(await ts.billing.store.ledgerCount(a.account)).toBe(5);
    });

    it('response format: top-level wins; otherwise the elements must agree (412 if not)', async () => {
      const top = await call('lines', { responseformat: 'xml', batch: [LINES_OK, { ...LINES_OK, responseformat: 'json' }] });
      expect(top.status).toBe(200);
      expect(top.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
      expect(xml.parse(top.text).responses.response).toHaveLength(2);
      const agree = await call('lines', { batch: [{ ...LINES_OK, responseformat: 'xml' }, LINES_OK] });
      expect(agree.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
      expectError(await call('lines', { batch: [{ ...LINES_OK, responseformat: 'xml' }, { ...LINES_OK, responseformat: 'json' }] }), 412, /responseformat/);
      expectError(await call('lines', { responseformat: 'yaml', batch: [LINES_OK] }), 412, /responseformat/);
      const json = await call('lines', { batch: [LINES_OK] });
      expect(json.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    });
  });

  describe('XML', () => {
    const tricky = { ...LINES_OK, street: `<Müller & "Söhne"> 'Ltd' ]]> \u0001`, city: 'Zürich\r\nNord' };
    it('a single record parses back, key by key in spec order, to the JSON values', async () => {
      const j = (await call('lines', tricky)).json();
      const r = await call('lines', { ...tricky, responseformat: 'xml', requestproof: '1', returnavailablecredits: '1' });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
      expect(r.text.startsWith('<?xml version="1.0" encoding="UTF-8"?><response>')).toBe(true);
      expect(r.text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
      const p = xml.parse(r.text).response as Record<string, string>;
      expect(Object.keys(p)).toEqual([...LINES_RECORD_KEYS, 'requestid', 'availablecredits']);
      for (const k of LINES_RECORD_KEYS) {
        // A control character (not representable in XML 1.0) is replaced by U+FFFD; all else is exact.
        const expected = String(j[k]).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '\uFFFD');
        expect(p[k], k).toBe(expected);
      }
      expect(Number(p.addresslinestatuscode)).toBe(j.addresslinestatuscode);
      expect(isRequestId(p.requestid!)).toBe(true);
    });

    it.skipIf(!searchRuns)('a search record parses back to the JSON values', async () => {
      const j = (await call('search', SEARCH_OK)).json();
      const p = xml.parse((await call('search', { ...SEARCH_OK, responseformat: 'xml' })).text).response;
      expect(p).toEqual(j);
    });

    it('a batch is <responses> with one <response> per element, errors in their slots', async () => {
      const r = await call('lines', { responseformat: 'xml', batch: [tricky, { countrycode: 'DE' }, LINES_OK] });
      const j = (await call('lines', { batch: [tricky, { countrycode: 'DE' }, LINES_OK] })).json();
      const items = xml.parse(r.text).responses.response as Array<Record<string, string>>;
      expect(items).toHaveLength(3);
      expect(items[1]).toEqual({ errorcode: '428', errormessage: j[1].errormessage });
      expect(items[2]).toEqual(Object.fromEntries(Object.entries(j[2]).map(([k, v]) => [k, String(v)])));
    });

    it('an error is <error><errorcode/><errormessage/></error> when XML was asked for', async () => {
      const r = await call('lines', { countrycode: 'DE', responseformat: 'xml' });
      expect(r.status).toBe(428);
      expect(r.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
      const p = xml.parse(r.text);
      expect(p.error.errorcode).toBe('428');
      expect(p.error.errormessage).toMatch(/sendercountrycode/);
      const r2 = await call('lines', { ...LINES_OK, responseformat: 'xml' }, { license: creds.license, guid: 'x'.repeat(36) });
      expect(r2.status).toBe(401);
      expect(xml.parse(r2.text).error.errorcode).toBe('401');
    });
  });

  describe('request bodies', () => {
    it('application/x-www-form-urlencoded; charset=UTF-8 is accepted, other charsets and media types → 415', async () => {
      const body = form({ license: creds.license, guid: creds.guid, ...LINES_OK });
      expect((await raw('/address/lines', { body, contentType: 'application/x-www-form-urlencoded; charset=UTF-8' })).status).toBe(200);
      expectError(await raw('/address/lines', { body, contentType: 'application/x-www-form-urlencoded; charset=ISO-8859-1' }), 415);
      expectError(await raw('/address/lines', { body: JSON.stringify({ license: creds.license }), contentType: 'application/json' }), 415);
      expectError(await raw('/address/lines', { body, contentType: 'text/plain' }), 415);
      expectError(await raw('/address/lines', { body, contentType: 'multipart/form-data; boundary=x' }), 415);
    });
    it('invalid UTF-8 → 412; + and %20 are spaces; unknown and nested names are ignored', async () => {
      const base = form({ license: creds.license, guid: creds.guid, ...LINES_OK });
      expectError(await raw('/address/lines', { body: base + '&city=%C3%28' }).then((r) => r), 412, /UTF-8/);
      const r = await raw('/address/lines', { body: base.replace(/street=[^&]*/, 'street=Unter+den%20Linden') + '&a[b]=1&__proto__=x' });
      expect(r.status).toBe(200);
    });
    it('a body over the limit → 413 with the error body', async () => {
      const small = await startTestServer({ runner: standInRunner(), serverOptions: { bodyLimit: 1024 } });
      try {
        const res = await fetch(small.url + '/address/lines', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'city=' + 'a'.repeat(5000) });
        expect(res.status).toBe(413);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(((await res.json()) as { errorcode: number }).errorcode).toBe(413);
      } finally {
        await small.close();
      }
    });
  });

  describe('500, 503 and CORS', () => {
    it('500 has no body, carries the CORS header, and the reservation is released', async () => {
      const broken = await startTestServer({ runner: standInRunner({ fail: true }) });
      try {
        const a = await broken.billing.createAccount({ credits: 100, agreements: ['lines'] });
        const res = await fetch(broken.url + '/address/lines', {
          method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ license: a.license, guid: a.guid, batch: [LINES_OK, LINES_OK] }),
        });
        expect(res.status).toBe(500);
        expect(await res.text()).toBe('');
        expect(res.headers.get('content-type')).toBeNull();
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        const row = await broken.billing.store.findAccount({ id: a.account });
        expect(row).toMatchObject({ credits: 100, reserved: 0 });
        expect(await broken.billing.store.ledgerCount(a.account)).toBe(0);
      } finally {
        await broken.close();
      }
    });

    it('an engine failure confined to one element: single mode answers 500 without a body, batch mode fills that slot', async () => {
      const failing = { runValidated: async (_op: string, elements: Array<{ request: { city?: string } }>) => elements.map((e) =>
        e.request.city === 'boom'
          ? { ok: false as const, error: { errorcode: 500, errormessage: 'An unexpected condition ended the request. (boom)' } }
          : { ok: true as const, record: LINES_RECORD, chargeable: true, options: { requestproof: false, returnavailablecredits: false } }) };
      const srv = await startTestServer({ runner: failing as never });
      try {
        const a = await srv.billing.createAccount({ credits: 100, agreements: ['lines'] });
        const single = await fetch(srv.url + '/address/lines', {
          method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ license: a.license, guid: a.guid, ...LINES_OK, city: 'boom' }),
        });
        expect(single.status).toBe(500);
        expect(await single.text()).toBe('');
        expect(single.headers.get('access-control-allow-origin')).toBe('*');
        const batch = await fetch(srv.url + '/address/lines', {
          method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ license: a.license, guid: a.guid, batch: [LINES_OK, { ...LINES_OK, city: 'boom' }] }),
        });
        expect(batch.status).toBe(200);
        const items = await batch.json() as Array<Record<string, unknown>>;
        expect(items[1]).toEqual({ errorcode: 500, errormessage: expect.stringContaining('boom') });
        expect(items[0]).toMatchObject({ addresslinestatuscode: 0 });
        expect(await srv.billing.store.ledgerCount(a.account)).toBe(1); // only the processed record
      } finally {
        await srv.close();
      }
    });

    it('maintenance on → 503 with the error body on both endpoints, switched without restart', async () => {
      await ts.billing.setMaintenance(true);
      await ts.server.refreshMaintenance();
      try {
        for (const op of ['search', 'lines'] as const) {
          expectError(await call(op, op === 'lines' ? LINES_OK : SEARCH_OK), 503, ERRORS.MAINTENANCE.message);
          expectError(await raw(`/address/${op}`, { body: 'garbage', contentType: 'application/json' }), 503);
        }
        expectError(await raw('/address/lines', { method: 'GET' }), 405);
        expect((await raw('/healthz', { method: 'GET' })).json().maintenance).toBe(true);
      } finally {
        await ts.billing.setMaintenance(false);
      }
      // The poll (50 ms here) picks the change up without a restart.
      const until = Date.now() + 5000;
      while (ts.server.inMaintenance && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect((await call('lines', LINES_OK)).status).toBe(200);
    });

    it('a refresh sees a flag set while a poll was reading (the read in flight began before the change)', async () => {
      const billing = ts.billing as unknown as { getMaintenance: () => Promise<boolean> };
      const real = billing.getMaintenance;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      // the poll's read: it reads the store now ("off") and answers only once released
      billing.getMaintenance = async function (this: unknown) { const v = await real.call(this); await gate; return v; };
      try {
        const inFlight = ts.server.refreshMaintenance();
        billing.getMaintenance = real;
        await ts.billing.setMaintenance(true);
        const refreshed = ts.server.refreshMaintenance(); // once returned at once, and the read in flight then wrote "off"
        release();
        await refreshed;
        expect(ts.server.inMaintenance).toBe(true);
        await inFlight;
      } finally {
        billing.getMaintenance = real;
        release();
        await ts.billing.setMaintenance(false);
        await ts.server.refreshMaintenance();
      }
      expect(ts.server.inMaintenance).toBe(false);
    });

    it('a malformed HTTP request gets a 400 that still carries the CORS header', async () => {
      const port = Number(new URL(ts.url).port);
      const text = await new Promise<string>((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => s.write('POST /address/lines HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'));
        let buf = '';
        s.on('data', (d) => (buf += d));
        s.on('end', () => resolve(buf));
        s.on('error', reject);
      });
      expect(text).toMatch(/^HTTP\/1.1 400/);
      expect(text.toLowerCase()).toContain('access-control-allow-origin: *');
    });

    it('an unusual method on an API path is 405, elsewhere 404', async () => {
      const port = Number(new URL(ts.url).port);
      const status = (method: string, path: string) => new Promise<[number, string | undefined]>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
          res.resume();
          res.on('end', () => resolve([res.statusCode!, res.headers['access-control-allow-origin'] as string | undefined]));
        });
        req.on('error', reject);
        req.end();
      });
      expect(await status('PROPFIND', '/address/search')).toEqual([405, '*']);
      expect(await status('TRACE', '/address/lines')).toEqual([405, '*']);
      expect(await status('PROPFIND', '/nope')).toEqual([404, '*']);
    });

    it('every answer of this suite carried Access-Control-Allow-Origin: *', () => {
      expect(seen.length).toBeGreaterThan(100);
      const statuses = new Set(seen.map((s) => s.status));
      for (const s of [200, 401, 402, 403, 404, 405, 412, 415, 428, 503]) expect(statuses, `status ${s} seen`).toContain(s);
      expect(seen.filter((s) => s.acao !== '*')).toEqual([]);
    });
  });
});

if (!searchRuns) describe.skip(SEARCH_SKIP, () => { it('search tests', () => {}); });
