/**
 * Graceful shutdown: a request in flight when the server is asked to close finishes and is
 * charged; a request arriving during the shutdown is refused with 503.
 */
import { describe, expect, it } from 'vitest';
import { postForm, standInRunner, startTestServer } from '../../helpers/http-server.ts';

const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };

describe('graceful shutdown [engine: stand-in with a 300 ms delay]', () => {
  it('in-flight requests finish and are charged; new ones get 503', async () => {
    const s = await startTestServer({ runner: standInRunner({ delayMs: 300 }) });
    const a = await s.billing.createAccount({ credits: 1000, agreements: ['lines'] });
    const body = { license: a.license, guid: a.guid, batch: JSON.stringify([LINES_OK, LINES_OK, LINES_OK]) };
    const inflight = postForm(s.url + '/address/lines', body);
    await new Promise((r) => setTimeout(r, 100));
    const closing = s.server.close();
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(res.json()).toHaveLength(3);
    await closing;
    expect(await s.billing.balance(a.account)).toBe(1000 - 60);
    expect(await s.billing.store.ledgerCount(a.account)).toBe(3);
    await s.close();
  });

  it('a request whose client hung up is still run and charged, and close() waits for its settle before the store closes', async () => {
    const s = await startTestServer({ runner: standInRunner({ delayMs: 300 }) });
    const a = await s.billing.createAccount({ credits: 1000, agreements: ['lines'] });
    const hangUp = new AbortController();
    const gone = postForm(s.url + '/address/lines', { license: a.license, guid: a.guid, ...LINES_OK }, { signal: hangUp.signal }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 100));
    hangUp.abort(); // the client leaves while the engine runs: its connection closes at once
    expect(await gone).toBeInstanceOf(Error);
    await s.server.close(); // connections are all gone: close() must still wait for the request
    expect(await s.billing.store.ledgerCount(a.account)).toBe(1);
    expect(await s.billing.balance(a.account)).toBe(980);
    await s.close();
  });

  it('a request on a kept-alive connection during shutdown is answered 503 with the error body', async () => {
    const s = await startTestServer({ runner: standInRunner({ delayMs: 300 }) });
    const a = await s.billing.createAccount({ credits: 1000, agreements: ['lines'] });
    const first = postForm(s.url + '/address/lines', { license: a.license, guid: a.guid, ...LINES_OK });
    await new Promise((r) => setTimeout(r, 100));
    const closing = s.server.close();
    // The app's onRequest hook sees `closing` for anything that still gets through.
    const late = await s.server.app.inject({ method: 'POST', url: '/address/lines', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' });
    expect(late.statusCode).toBe(503);
    expect(late.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(late.body).errorcode).toBe(503);
    expect((await first).status).toBe(200);
    await closing;
    expect(await s.billing.balance(a.account)).toBe(980);
    await s.close();
  });
});
