import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { committedMigrationCount, type Database, migrationsFolder, openDatabase } from '../src/db/client';
import { migrationsWith } from './fixtures/migrations';
import { createTestDatabase, engines, type TestDatabase, testConfig } from './helper';

// /readyz compares the migrations the database applied with those this release ships (ADR 031)
describe.each(engines)('/readyz and the schema on %s', (engine) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });
  const known = committedMigrationCount();
  // one migration past this release's: what a newer release would have applied
  const newer = () => migrationsWith('next_release_expand', ['CREATE TABLE "next_release_notes" ("id" bigint PRIMARY KEY)']);

  async function appOn(applied: string | undefined, releaseKnows: string) {
    const testDatabase: TestDatabase = await createTestDatabase(engine, applied);
    cleanup.push(() => testDatabase.drop());
    const opened = await openDatabase(testDatabase.options);
    // the same database, seen by a release that ships the migrations in `releaseKnows`
    const database: Database = { ...opened, migrationsFolder: releaseKnows };
    const app = await buildApp({ config: testConfig(), database, logger: false });
    cleanup.push(() => app.close());
    return app;
  }

  it('says schema behind (503) when the database lacks a migration this release needs', async () => {
    const folder = await newer();
    cleanup.push(() => rm(folder, { recursive: true, force: true }));
    const app = await appOn(undefined, folder);
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().data).toMatchObject({
      status: 'not ready',
      reason: `schema behind: ${known} of the ${known + 1} migrations this release needs are applied`,
      checks: { database: { status: 'up' }, schema: { status: 'behind', applied: known, known: known + 1 } },
    });
  });

  it('says schema ahead, and stays ready, when a newer release has migrated the database', async () => {
    const folder = await newer();
    cleanup.push(() => rm(folder, { recursive: true, force: true }));
    const app = await appOn(folder, migrationsFolder);
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toMatchObject({
      status: 'ready',
      reason: `schema ahead: the database has ${known + 1} migrations, this release knows ${known}`,
      checks: { schema: { status: 'ahead', applied: known + 1, known } },
    });
  });
});
