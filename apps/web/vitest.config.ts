import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure logic (`src/**/*.test.ts`), in Node: formatting, route and menu
// derivation, form checks against the contracts. What needs a browser is tested in e2e/.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // one time zone for every machine, so a formatted time is the same digits everywhere
    setupFiles: ['./vitest.setup.ts'],
  },
});
