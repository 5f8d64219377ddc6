import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // the two-release rehearsal needs a previous release checked out: npm test's upgrade step runs it
    exclude: [...configDefaults.exclude, 'test/upgrade/**'],
    globalSetup: ['test/global-setup.ts'],
    // generous: these bound a stuck test, they do not measure speed (that is npm run bench)
    testTimeout: 180_000,
    // as the browser tests: one retry absorbs a starved machine's hiccup (a broker connection dropped, a
    // timer late); a test that fails twice fails the run, and the run's output marks a retried test
    retry: 1,
    hookTimeout: 240_000,
    pool: 'forks',
    // a worker runs its files one after the other in one process, importing the server's modules once:
    // isolated, every file imported them afresh (3–4 s each, about 76 s of a 362 s run on two workers).
    // No suite mocks a module or stubs a global; each builds its own app, database and broker
    isolate: false,
    // PGlite instances are memory-hungry and the machine has two cores
    maxWorkers: 2,
    fileParallelism: true,
  },
});
