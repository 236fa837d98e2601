import { defineConfig } from 'vitest/config';

// One runner for every suite: unit, integration over real HTTP, crash tests and browser e2e.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // 2-core machines: the heavy suites (crash, outage, e2e) must not starve each other.
    maxWorkers: 2,
  },
});
