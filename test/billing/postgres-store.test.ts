import { describe } from 'vitest';
import { PostgresStore } from '../../src/billing/postgres/store.ts';
import { storeContract } from './store-contract.ts';
import { dropSchema, PG_SKIP_REASON, pgUrlWithSchema, postgresReachable, uniqueSchema } from '../helpers/postgres.ts';

const up = await postgresReachable();
const schema = uniqueSchema('billing');

(up ? describe : describe.skip)(up ? 'billing store contract: PostgreSQL' : `billing store contract: PostgreSQL — SKIPPED: ${PG_SKIP_REASON}`, () => {
  storeContract({
    open: async () => new PostgresStore(pgUrlWithSchema(schema)),
    openSecond: async () => new PostgresStore(pgUrlWithSchema(schema)),
    cleanup: async () => dropSchema(schema),
  });
});
