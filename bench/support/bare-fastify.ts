/**
 * Baseline for bench/http.bench.ts: a bare fastify POST route that returns a fixed recipient-block
 * record (no body parsing, no billing, no engine). Prints {"listening": url} like `addrflow serve`.
 */
import Fastify from 'fastify';

const RECORD = JSON.stringify({
  addressline1: 'Hauptstraße 5', addressline2: '10115 Berlin', addressline3: '', addressline4: '',
  addressline5: '', addressline6: '', addresslinestatuscode: 0, addresslinestatusmessage: 'OK',
});
const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, b, done) => done(null, b));
app.post('/address/lines', async (_req, reply) => reply
  .header('content-type', 'application/json; charset=UTF-8').header('access-control-allow-origin', '*').send(RECORD));
await app.listen({ host: '127.0.0.1', port: 0 });
const a = app.server.address();
process.stdout.write(JSON.stringify({ listening: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` }) + '\n');
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
