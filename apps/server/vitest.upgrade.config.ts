import { defineConfig } from 'vitest/config';

// `npm test -- upgrade`: the previous release and this one side by side on one PostgreSQL database
// (test/upgrade). It starts processes of its own and needs none of the API suites' fixtures.
export default defineConfig({
  test: {
    include: ['test/upgrade/**/*.test.ts'],
    // generous: these bound a stuck test, they do not measure speed
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
