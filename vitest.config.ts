import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // 2-core CI machine: keep file parallelism modest so pool/Kafka tests get CPU.
    maxWorkers: 2,
    // The default report, then one plain closing line: `N passed, N failed, N skipped`.
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
