import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { renderWithId } from '../../src/contract/render-json.ts';

describe('renderWithId', () => {
  // Integer-like keys are excluded: JS objects would list them before 'id' (records have none).
  it('is the text of JSON.stringify({ id, ...body }) for any JSON id and record (property)', () => {
    fc.assert(
      fc.property(fc.option(fc.jsonValue(), { nil: undefined }), fc.dictionary(fc.string().filter((k) => k !== 'id' && k !== '__proto__' && !/^\d+$/.test(k)), fc.jsonValue()), (id, body) => {
        expect(renderWithId(id, body)).toBe(JSON.stringify(id === undefined ? body : { id, ...body }));
      }),
      { numRuns: 500 },
    );
  });

  it('puts the id first and keeps the record key order', () => {
    expect(renderWithId('a-1', { addressline1: 'x', addresslinestatuscode: 0 })).toBe('{"id":"a-1","addressline1":"x","addresslinestatuscode":0}');
    expect(renderWithId(7, {})).toBe('{"id":7}');
  });
});
