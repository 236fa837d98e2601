import { defineConfig } from 'vitest/config';

/**
 * The sync suites that decide "nothing lost, nothing doubled" run again against the sandbox's
 * spec-minimal profile in both record shapes: what a /v1 written from the spec alone may send
 * (test/sync/harness.ts reads POS_TEST_SANDBOX_PROFILE).
 */
const SUITES_PER_PROFILE = [
  ...['push', 'crash', 'pull', 'webhooks', 'conflicts', 'two-terminals', 'checkout', 'table-checks'].map((name) => `test/sync/${name}.test.ts`),
  // Store mode: a store through an outage, and a dead till's orders adopted (each order once in the cloud).
  ...['store-outage', 'adoption'].map((name) => `test/store-mode/${name}.test.ts`),
];

// One runner for every suite: unit, integration over real HTTP, crash tests and browser e2e.
export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // 2-core machines: the heavy suites (crash, outage, e2e) must not starve each other.
    maxWorkers: 2,
    // Testing Library's waits in DOM suites (test/dom-waits.ts); nothing in the others.
    setupFiles: ['test/dom-waits.ts'],
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      ...['spec-minimal/flat', 'spec-minimal/jsonapi'].map((profile) => ({
        extends: true as const,
        test: { name: profile, include: SUITES_PER_PROFILE, env: { POS_TEST_SANDBOX_PROFILE: profile } },
      })),
    ],
  },
});
