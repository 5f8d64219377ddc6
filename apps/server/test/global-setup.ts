import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { seed } from '../src/seed';
import { dropPostgresDatabase, postgresAdminUrl, postgresDatabaseUrl } from './postgres-admin';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite cluster, empty. */
    pgliteTemplate: string;
    /** The same with the demo data (`SEED=demo`) in it. */
    pgliteSeededTemplate: string;
    /** A PostgreSQL database with the demo data, to create test databases from; '' without PostgreSQL. */
    postgresSeededTemplate: string;
    /** The compiled server (`node <this>`), built once for the suites that start server processes. */
    serverBuild: string;
  }
}

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Once per run, for every suite:
 * - a migrated PGlite cluster to copy, and one with the demo data seeded (creating one, initdb and
 *   migrations, costs seconds; seeding the demo data as many again); on PostgreSQL a seeded database that
 *   test databases are created from (`CREATE DATABASE … TEMPLATE`, a file copy). A copy still runs the
 *   migrator, which finds nothing to do;
 * - the compiled server, as production runs it: a process started from it is up in a fraction of the
 *   time `tsx src/main.ts` takes to compile the sources, and it is what ships. A folder of its own beside
 *   dist/ (the server finds drizzle/ and the web build from there), so `npm start` rebuilding dist/
 *   meanwhile changes nothing under the tests.
 */
export default async function setup(project: TestProject) {
  const outdir = `dist-test-${process.pid}-${randomBytes(3).toString('hex')}`;
  const build = promisify(execFile)(process.execPath, ['build.mjs', '--outdir', outdir], { cwd: serverDir }).catch(
    (error: { stderr?: string }) => {
      throw new Error(`the server build failed: ${error.stderr ?? error}`);
    },
  );
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED: 'demo', DATA_DIR: os.tmpdir() });
  const empty = await mkdtemp(path.join(os.tmpdir(), 'atrium-template-'));
  await (await openDatabase({ engine: 'pglite', dataDir: empty })).close();
  const seeded = await mkdtemp(path.join(os.tmpdir(), 'atrium-template-seeded-'));
  await cp(empty, seeded, { recursive: true });
  const pglite = await openDatabase({ engine: 'pglite', dataDir: seeded });
  await seed(pglite, config);
  await pglite.close();

  const postgresTemplate = await seededPostgres(config);
  await build;
  project.provide('pgliteTemplate', empty);
  project.provide('pgliteSeededTemplate', seeded);
  project.provide('postgresSeededTemplate', postgresTemplate?.name ?? '');
  project.provide('serverBuild', path.join(serverDir, outdir, 'main.js'));
  return async () => {
    for (const dir of [empty, seeded, path.join(serverDir, outdir)]) await rm(dir, { recursive: true, force: true });
    await postgresTemplate?.drop();
  };
}

/** A seeded PostgreSQL database to copy, when PostgreSQL is there (helper.ts decides whether suites need it). */
async function seededPostgres(config: ReturnType<typeof loadConfig>) {
  if (process.env.ATRIUM_TEST_ENGINES === 'pglite') return null;
  const admin = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  const name = `atrium_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch {
    await admin.end().catch(() => {});
    return null;
  }
  await admin.end();
  const database = await openDatabase({ engine: 'postgres', ownerUrl: postgresDatabaseUrl(name), poolSize: 2 });
  await seed(database, config);
  await database.close();
  return {
    name,
    drop: () => dropPostgresDatabase(name),
  };
}
