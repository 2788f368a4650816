import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/shared-data.ts';
import { LINES_PARAMS, OP_PATHS, SEARCH_PARAMS } from '../../src/contract/params.ts';
import { renderOpenApi } from '../../scripts/gen-openapi.ts';

const text = readFileSync(`${PROJECT_ROOT}/docs/openapi.yaml`, 'utf8');

describe('docs/openapi.yaml', () => {
  it('is what scripts/gen-openapi.ts generates from the contract (no drift)', () => {
    expect(text).toBe(renderOpenApi());
  });
  it('is OpenAPI 3.1 with both endpoints, every parameter with its bounds, and every status', () => {
    const doc = parse(text);
    expect(doc.openapi).toBe('3.1.0');
    for (const [op, defs] of [['search', SEARCH_PARAMS], ['lines', LINES_PARAMS]] as const) {
      const post = doc.paths[OP_PATHS[op]].post;
      const props = post.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
      for (const d of defs) {
        const s = props[d.name];
        if (d.type === 'integer') expect([s.minimum, s.maximum]).toEqual([d.min, d.max]);
        else expect([s.minLength, s.maxLength]).toEqual([d.min, d.max]);
      }
      expect(props.license).toMatchObject({ minLength: 29, maxLength: 29 });
      expect(Object.keys(post.responses).sort()).toEqual(['200', '401', '402', '403', '405', '409', '412', '413', '415', '428', '500', '503']);
      expect(post.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key')).toMatchObject({ in: 'header', required: false });
    }
  });
});
