import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure logic (`src/**/*.test.ts`), in Node: formatting, route and menu
// derivation, form checks against the contracts. What needs a browser is tested in e2e/.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // one time zone for every machine, so a formatted time is the same digits everywhere; the zone belongs
    // to the process, so each test file runs in a process of its own (a worker thread could not change it)
    setupFiles: ['./vitest.setup.ts'],
    pool: 'forks',
  },
});
