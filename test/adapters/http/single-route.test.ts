/**
 * Where a single record runs (src/adapters/http/single-route.ts): on the store's thread with its
 * charge, unless it runs on the event loop, has an Idempotency-Key, or overflows to the pool on a
 * machine with cores to spare once the store's thread is the queue.
 */
import { describe, expect, it } from 'vitest';
import { onStoreThread, STORE_BACKLOG_OVERFLOW } from '../../../src/adapters/http/single-route.ts';

const lookup = { storeRunsWork: true, runsHere: false, idempotent: false, waiting: 0 };

describe('single-record route', () => {
  it('a lookup runs on the store\'s thread when that thread runs work', () => {
    expect(onStoreThread({ ...lookup, cores: 2 })).toBe(true);
    expect(onStoreThread({ ...lookup, cores: 16 })).toBe(true);
  });

  it('never where the store runs no work (PostgreSQL), for a record the event loop runs, or one with an Idempotency-Key', () => {
    expect(onStoreThread({ ...lookup, storeRunsWork: false })).toBe(false);
    expect(onStoreThread({ ...lookup, runsHere: true })).toBe(false);
    expect(onStoreThread({ ...lookup, idempotent: true })).toBe(false);
  });

  it('overflows to the pool once the store\'s thread is the queue, only with more than two cores', () => {
    const queued = { ...lookup, waiting: STORE_BACKLOG_OVERFLOW };
    expect(onStoreThread({ ...queued, cores: 2 })).toBe(true);
    expect(onStoreThread({ ...queued, cores: 4 })).toBe(false);
    expect(onStoreThread({ ...queued, waiting: STORE_BACKLOG_OVERFLOW - 1, cores: 4 })).toBe(true);
  });
});
