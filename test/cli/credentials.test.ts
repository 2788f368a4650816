import { describe, expect, it } from 'vitest';
import { credentialsFrom } from '../../src/cli/credentials.ts';

describe('credentialsFrom', () => {
  const env = { ADDRFLOW_LICENSE: 'ENV-LICENSE', ADDRFLOW_GUID: 'env-guid' };
  it('prefers the flags, falls back to ADDRFLOW_LICENSE / ADDRFLOW_GUID, and leaves absent ones out', () => {
    expect(credentialsFrom({ license: 'L', guid: 'G' }, env)).toEqual({ license: 'L', guid: 'G' });
    expect(credentialsFrom({}, env)).toEqual({ license: 'ENV-LICENSE', guid: 'env-guid' });
    expect(credentialsFrom({ guid: 'G' }, { ADDRFLOW_LICENSE: 'X' })).toEqual({ license: 'X', guid: 'G' });
    expect(credentialsFrom({}, {})).toEqual({});
  });
});
