import { describe } from 'vitest';
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/config/shared-data.ts';

export { sharedDataPath };

/**
 * `describe` for suites that read real open data from `../shared/data` (or ADDRFLOW_DATA_DIR).
 * When the folder is absent the whole suite is skipped, and the reason is visible in the report.
 */
export function describeWithSharedData(name: string, parts: string[], fn: () => void): void {
  if (hasSharedData(...parts)) {
    describe(`${name} [needs ../shared/data/${parts.join('/')}]`, fn);
  } else {
    describe.skip(
      `${name} — SKIPPED: ${sharedDataPath(...parts)} is absent (set ADDRFLOW_DATA_DIR or place ../shared beside the checkout; data dir is ${sharedDataDir()})`,
      fn,
    );
  }
}
