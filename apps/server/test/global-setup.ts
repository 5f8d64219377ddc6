import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * Creating a PGlite cluster (initdb) and migrating it costs seconds; do it once per run and let each
 * suite copy the directory. The copy still runs the migrator, which finds nothing to do.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-template-'));
  const database = await openDatabase({ engine: 'pglite', dataDir: dir });
  await database.close();
  project.provide('pgliteTemplate', dir);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
