/**
 * 10,000 random and hostile requests (huge fields, bad UTF-8 and percent-encoding, nested and
 * repeated names, random batch JSON, wrong content types and charsets, random bytes) against a
 * real server: never a 500, never a crash, every answer a well-formed error body or a result, the
 * CORS header on all of them, and the server still healthy and correct afterwards.
 * Seeded (ADDRFLOW_FUZZ_SEED) so that a failure can be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINES_PARAMS, OPTION_PARAMS, SEARCH_PARAMS } from '../../../src/contract/params.ts';
import { chooseEngine, postForm, startTestServer, type TestServer } from '../../helpers/http-server.ts';
import { mulberry32 } from '../../../eval/support/prng.ts';

const N = 10_000;
const SEED = Number(process.env.ADDRFLOW_FUZZ_SEED ?? 20240611);
const engine = await chooseEngine();
const NOTE = '[engine: real pool]';

/** Seeded helpers over mulberry32, so every run sends the same 10,000 bodies. */
function rng(seed: number) {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

const NAMES = [...new Set([...LINES_PARAMS, ...SEARCH_PARAMS, ...OPTION_PARAMS].map((d) => d.name)), 'license', 'guid', 'batch'];
const ALLOWED = new Set([200, 401, 402, 403, 404, 405, 412, 413, 415, 428]);

type R = ReturnType<typeof rng>;

function randomString(r: R): string {
  const kind = r.int(10);
  const len = r.pick([0, 1, 2, 3, 5, 29, 36, 50, 51, 255, 256, 1000, r.int(40)]);
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz ', 'ÄÖÜßéèçñøå', '😀𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '<>&"\'\r\n\t\u0000\u0001\u001f\u007f', '%+=&;#?/\\', '0123456789-', '\uFFFE\uFFFF\u200B\u202E',
  ];
  if (kind === 0) return 'x'.repeat(r.pick([10_000, 100_000, 300_000]));
  const alpha = r.pick(alphabets);
  let s = '';
  const chars = [...alpha];
  for (let i = 0; i < len; i++) s += chars[r.int(chars.length)];
  return s;
}

function randomJson(r: R, depth = 0): unknown {
  const k = r.int(depth > 3 ? 4 : 8);
  switch (k) {
    case 0: return randomString(r);
    case 1: return r.int(1000) - 500;
    case 2: return r.pick([null, true, false, 1e308, -0, 20, 80, 81, 19, 40.5]);
    case 3: return Object.fromEntries(Array.from({ length: r.int(6) }, () => [r.pick(NAMES), r.int(3) ? randomString(r) : randomJson(r, depth + 1)]));
    case 4: return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1));
    case 5: return { countrycode: r.pick(['DE', 'de', 'XX', 'US', '', 'DEU', 'FR', 'GB', 'LV']), sendercountrycode: r.pick(['DE', 'FR', 'AT', '']), city: randomString(r), street: randomString(r), zip: randomString(r), maxcharsperline: r.pick([20, 80, '40', 19, 'x', 40.5]) };
    case 6: return { ['__proto__']: { polluted: true }, constructor: { prototype: { x: 1 } }, city: 'Berlin' };
    default: return Array.from({ length: r.int(3) }, () => randomJson(r, depth + 1));
  }
}

function deepNest(n: number): string {
  return '['.repeat(n) + ']'.repeat(n);
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

interface Case { method: string; path: string; contentType: string | undefined; body: Uint8Array | string | undefined }

function makeCase(r: R, creds: Array<{ license: string; guid: string }>): Case {
  const path = r.next() < 0.93 ? r.pick(['/address/lines', '/address/search']) : r.pick(['/', '/address', '/address/lines/', '/x?y=%zz', '/%ff', '/address/search?batch=1']);
  const method = r.next() < 0.95 ? 'POST' : r.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
  const contentType = r.next() < 0.85 ? 'application/x-www-form-urlencoded'
    : r.pick([undefined, 'application/json', 'text/xml', 'multipart/form-data; boundary=zz', 'application/x-www-form-urlencoded; charset=latin1',
      'application/x-www-form-urlencoded; charset="UTF-8"', 'application/x-www-form-urlencoded;;;', 'APPLICATION/X-WWW-FORM-URLENCODED', '*/*', '']);
  const kind = r.int(10);
  const c = r.pick(creds);
  const credPart = r.next() < 0.8 ? `license=${enc(c.license)}&guid=${enc(c.guid)}&` : '';
  let body: Uint8Array | string;
  if (kind === 0) {
    const len = r.pick([0, 1, 17, 500, 4000]);
    body = Uint8Array.from({ length: len }, () => r.int(256));
  } else if (kind === 1) {
    // Bad percent-encoding and bad UTF-8.
    body = credPart + r.pick(['city=%C3%28', 'city=%FF%FE', 'city=%', 'city=%4', 'city=%zz', 'street=%ED%A0%80', 'zip=%F0%9F%98', '%C3=%A9', 'city=%00%01']) + '&countrycode=DE&sendercountrycode=DE';
  } else if (kind === 2) {
    // Nested and repeated names.
    body = credPart + r.pick(['batch[0][city]=x', 'city[]=a&city[]=b', 'a[b][c]=1&countrycode=DE&sendercountrycode=DE', 'countrycode=DE&countrycode=FR&sendercountrycode=DE',
      'license=x&license=y', '__proto__[x]=1&constructor[prototype][y]=2', 'batch=[]&batch=[]', '=&=&&&=', '&'.repeat(2000)]);
  } else if (kind === 3 || kind === 4) {
    // A batch of random JSON (sometimes valid elements, sometimes hostile structures).
    const batch = r.next() < 0.1 ? r.pick([deepNest(r.pick([100, 5000, 100_000])), '[' + '{},'.repeat(5001) + '{}]', '[{"countrycode":"DE","sendercountrycode":"DE"}', '"[]"', '1e999'])
      : JSON.stringify(Array.from({ length: r.pick([1, 2, 5, 50]) }, () => randomJson(r)));
    body = credPart + `batch=${enc(batch)}` + (r.next() < 0.3 ? `&responseformat=${enc(r.pick(['xml', 'json', 'XML', 'yaml', '']))}` : '');
  } else if (kind === 5) {
    // Many fields.
    body = credPart + Array.from({ length: r.pick([10, 999, 1001, 5000]) }, (_, i) => `f${i}=${i}`).join('&');
  } else {
    // Random fields from the parameter tables with random values.
    const fields = Array.from({ length: r.int(12) }, () => `${enc(r.pick(NAMES))}=${enc(randomString(r))}`);
    if (r.next() < 0.5) fields.push('countrycode=DE', 'sendercountrycode=DE');
    body = credPart + fields.join('&');
  }
  return { method, path, contentType, body: method === 'GET' ? undefined : body };
}

let ts: TestServer;
let good: { license: string; guid: string; account: string };

beforeAll(async () => {
  ts = await startTestServer({ runner: engine.runner, work: engine.singleWork, serverOptions: { bodyLimit: 2 * 1024 * 1024 } });
  good = await ts.billing.createAccount({ credits: 2_000_000, agreements: ['search', 'lines'] });
});
afterAll(async () => {
  await ts?.close();
  await engine.close();
});

describe(`fuzz: ${N} random and hostile requests ${NOTE} (seed ${SEED})`, () => {
  it('never a 500, never a crash; every answer well-formed and with the CORS header', async () => {
    const broke = await ts.billing.createAccount({ credits: 40, agreements: ['search', 'lines'] });
    const unlimited = await ts.billing.createAccount({ unlimited: true, agreements: ['search', 'lines'] });
    const noAgreement = await ts.billing.createAccount({ credits: 1000, agreements: [] });
    const creds = [good, good, good, broke, unlimited, noAgreement, { license: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', guid: 'x'.repeat(36) }, { license: 'short', guid: '' }];
    const r = rng(SEED);
    const cases = Array.from({ length: N }, () => makeCase(r, creds));
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const i = next++;
        const c = cases[i]!;
        const headers: Record<string, string> = {};
        if (c.contentType !== undefined) headers['content-type'] = c.contentType;
        let status: number;
        let text: string;
        let res: Response;
        try {
          res = await fetch(ts.url + c.path, { method: c.method, headers, ...(c.body !== undefined ? { body: c.body } : {}) });
          status = res.status;
          text = await res.text();
        } catch (err) {
          problems.push(`#${i}: transport error ${(err as Error).message}`);
          continue;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (!ALLOWED.has(status)) problems.push(`#${i}: status ${status} for ${c.method} ${c.path} ${String(c.body).slice(0, 200)}`);
        if (res.headers.get('access-control-allow-origin') !== '*') problems.push(`#${i}: no CORS header (status ${status})`);
        if (status !== 200 && c.method !== 'HEAD') {
          const ct = res.headers.get('content-type') ?? '';
          if (ct.startsWith('application/json')) {
            const b = JSON.parse(text) as { errorcode?: unknown; errormessage?: unknown };
            if (b.errorcode !== status || typeof b.errormessage !== 'string') problems.push(`#${i}: bad error body ${text.slice(0, 200)}`);
          } else if (!ct.startsWith('application/xml')) {
            problems.push(`#${i}: status ${status} with content-type '${ct}'`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(problems.slice(0, 20)).toEqual([]);
    // The generator reaches the interesting answers, not only one kind of refusal.
    for (const s of [200, 401, 402, 403, 404, 405, 412, 413, 415, 428]) expect(statuses.get(s) ?? 0, `status ${s}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);

    // Still healthy and still correct: no credit lost on the limited account.
    expect((await fetch(ts.url + '/healthz')).status).toBe(200);
    const ok = await postForm(ts.url + '/address/lines', { license: good.license, guid: good.guid, countrycode: 'DE', sendercountrycode: 'DE', city: 'Berlin', returnavailablecredits: '1' });
    expect(ok.status).toBe(200);
    const b = await ts.billing.store.findAccount({ id: broke.account });
    expect(b!.reserved).toBe(0);
    const spent = (await ts.billing.ledger(broke.account)).reduce((n, e) => n + e.credits, 0);
    expect(b!.credits + spent).toBe(40);
    expect(b!.credits).toBeGreaterThanOrEqual(0);
    const g = await ts.billing.store.findAccount({ id: good.account });
    expect(g!.reserved).toBe(0);
    expect(g!.credits).toBe(Number(ok.json().availablecredits));
  }, 240_000);
});
