/**
 * explain=1 over real HTTP (issue 18): a real server on 127.0.0.1, real billing (SQLite), the
 * real engine pool with the default index. The explanation comes as the record's last key in
 * JSON and as an `<explain>` element in XML, asked in the body, in the query string or as a
 * batch's top-level default; without it the body is the spec's keys only. A server logging at
 * trace level into a buffer proves that no explanation (nor the input it repeats) is logged.
 */
import { Writable } from 'node:stream';
import { XMLParser } from 'fast-xml-parser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_RECORD_KEYS } from '../../../src/contract/records.ts';
import { loggerOptions } from '../../../src/log.ts';
import { chooseEngine, startTestServer, type EngineChoice, type TestServer } from '../../helpers/http-server.ts';

const engine: EngineChoice = await chooseEngine();
let ts: TestServer;
let creds: { license: string; guid: string };
let logged = '';

const QUERY = { city: 'Muenchen', zip: '80331', street: 'Zzyzxweg' };

async function post(path: string, fields: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(ts.url + path, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...creds, ...fields }).toString(),
  });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  const sink = new Writable({ write(chunk, _enc, done) { logged += String(chunk); done(); } });
  const logger = pino(loggerOptions({ level: 'trace' }), sink);
  ts = await startTestServer({ runner: engine.runner, work: engine.singleWork, serverOptions: { logger } });
  creds = await ts.billing.createAccount({ credits: 1_000_000, agreements: ['search', 'lines'] });
});
afterAll(async () => {
  await ts?.close();
  await engine.close();
});

describe.skipIf(!engine.searchReady)('explain=1 over HTTP', () => {
  it('without it, the spec\'s keys only', async () => {
    const r = await post('/address/search', QUERY);
    expect(r.status).toBe(200);
    expect(Object.keys(JSON.parse(r.text))).toEqual([...SEARCH_RECORD_KEYS]);
  });

  it('explain=1 in the body: the explanation last, the record otherwise the same', async () => {
    const plain = JSON.parse((await post('/address/search', QUERY)).text);
    const r = await post('/address/search', { ...QUERY, explain: '1', requestproof: '1' });
    const b = JSON.parse(r.text);
    expect(Object.keys(b)).toEqual([...SEARCH_RECORD_KEYS, 'requestid', 'explain']);
    for (const k of SEARCH_RECORD_KEYS) expect(b[k]).toBe(plain[k]);
    expect(b.explain.parts).toContainEqual(expect.objectContaining({ input: 'Muenchen', status: 'corrected', field: 'city', became: 'München' }));
    expect(b.explain.parts).toContainEqual(expect.objectContaining({ input: 'Zzyzxweg', status: 'ignored' }));
    expect(b.explain.deductions).toContainEqual(expect.objectContaining({ code: 'UNEXPLAINED_WORD', why: expect.stringContaining('zzyzxweg') }));
  });

  it('explain=1 in the query string, and explain=0 or absent in the body', async () => {
    const r = await post('/address/search?explain=1', QUERY);
    expect(JSON.parse(r.text).explain).toBeDefined();
    const off = await post('/address/search', { ...QUERY, explain: '0' });
    expect(JSON.parse(off.text).explain).toBeUndefined();
  });

  it('a value other than \'\', 0 or 1 is the spec\'s 412', async () => {
    const r = await post('/address/search', { ...QUERY, explain: 'yes' });
    expect(r.status).toBe(412);
    expect(JSON.parse(r.text).errormessage).toMatch(/explain/);
  });

  it('XML: an <explain> element with <part> and <deduction> children', async () => {
    const r = await post('/address/search', { ...QUERY, explain: '1', responseformat: 'xml' });
    const x = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'part' || n === 'deduction' }).parse(r.text);
    const ex = x.response.explain;
    expect(ex.part).toContainEqual(expect.objectContaining({ input: 'Muenchen', status: 'corrected', became: 'München' }));
    expect(ex.deduction.length).toBeGreaterThan(0);
    expect(Object.keys(x.response).slice(0, SEARCH_RECORD_KEYS.length)).toEqual([...SEARCH_RECORD_KEYS]);
  });

  it('batch: a top-level explain=1 is every element\'s default; an element may say 0', async () => {
    const r = await post('/address/search', { explain: '1', batch: JSON.stringify([QUERY, { ...QUERY, explain: '0' }]) });
    const [a, b] = JSON.parse(r.text);
    expect(a.explain).toBeDefined();
    expect(b.explain).toBeUndefined();
  });

  it('is never logged, nor the input it repeats', async () => {
    await post('/address/search', { ...QUERY, explain: '1' });
    expect(logged.length).toBeGreaterThan(0); // the server did log (requests, at trace level)
    expect(logged).not.toMatch(/Zzyzx|zzyzx|Muenchen|parts|deductions|UNEXPLAINED_WORD/);
  });

  it('the logger redacts an explanation handed to it by mistake', () => {
    let line = '';
    const sink = new Writable({ write(chunk, _enc, done) { line += String(chunk); done(); } });
    const log = pino(loggerOptions({ level: 'info' }), sink);
    log.info({ explain: { parts: [{ input: 'Zzyzxweg' }] }, record: { explain: 'x' }, out: { record: { explain: 'y' } } }, 'oops');
    expect(line).toContain('[redacted]');
    expect(line).not.toMatch(/Zzyzxweg|"x"|"y"/);
  });
});
