import { describe, expect, it } from 'vitest';
import { HEADERS, correlationIdOf, headerString } from '../../../src/adapters/kafka/headers.ts';

describe('stream headers', () => {
  it('reads a header given as Buffer, string or repeated values', () => {
    expect(headerString({ a: Buffer.from('x-1') }, 'a')).toBe('x-1');
    expect(headerString({ a: 'x-2' }, 'a')).toBe('x-2');
    expect(headerString({ a: [Buffer.from('first'), 'second'] }, 'a')).toBe('first');
    expect(headerString({}, 'a')).toBeUndefined();
    expect(headerString(undefined, 'a')).toBeUndefined();
  });

  it('the correlation-id header wins over the v2 field, which is the fallback', () => {
    const headers = { [HEADERS.correlationId]: Buffer.from('from-header') };
    expect(correlationIdOf(headers, { correlationid: 'from-field' })).toBe('from-header');
    expect(correlationIdOf({}, { correlationid: 'from-field' })).toBe('from-field');
    expect(correlationIdOf({}, { correlationid: null })).toBeUndefined();
  });
});
