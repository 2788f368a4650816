import { describe, expect, it } from 'vitest';
import { isRequestId, newRequestId, requestIdTime } from '../../src/billing/request-id.ts';

describe('request ids (UUIDv7)', () => {
  it('have the UUIDv7 layout and carry their creation time', () => {
    const t = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const id = newRequestId(t);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isRequestId(id)).toBe(true);
    expect(requestIdTime(id)).toBe(t);
  });
  it('sort in creation order, also many within one millisecond, and never repeat', () => {
    const ids = Array.from({ length: 20_000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
  });
  it('stay ordered when the clock steps back', () => {
    const a = newRequestId(Date.now() + 10_000);
    const b = newRequestId(Date.now());
    expect(b > a).toBe(true);
  });
});
