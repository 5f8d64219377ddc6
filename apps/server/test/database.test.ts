import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenancyViolations } from '../src/db/architecture';
import { type Database, migrationsFolder, openDatabase, type RawResult, withTenant, withTenantStatement } from '../src/db/client';
import * as schema from '../src/db/schema';
import { tenants } from '../src/db/schema';
import { brokenTenantTable, migrationsWith, soundTenantTable } from './fixtures/migrations';
import { createTestDatabase, engines, type TestDatabase } from './helper';

describe('schema and migrations', () => {
  it('the committed migrations match the drizzle schema (run `npm run db:generate` after changing it)', async () => {
    const snapshots = (await readdir(path.join(migrationsFolder, 'meta'))).filter((f) => f.endsWith('_snapshot.json')).sort();
    const latest = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', snapshots.at(-1) as string), 'utf8'));
    const current = generateDrizzleJson(schema as Record<string, unknown>, latest.id);
    const pending = await generateMigration(latest, current);
    expect(pending).toEqual([]);
  });
});

describe.each(engines)('database layer on %s', (engine) => {
  describe('the real schema', () => {
    let testDatabase: TestDatabase;
    let database: Database;
    beforeAll(async () => {
      testDatabase = await createTestDatabase(engine);
      database = await openDatabase(testDatabase.options);
    });
    afterAll(async () => {
      await database?.close();
      await testDatabase?.drop();
    });

    it('serves as a role that cannot bypass row-level security', async () => {
      const [role] = await database.query<{ rolname: string; rolsuper: boolean; rolbypassrls: boolean }>(
        'select rolname, rolsuper, rolbypassrls from pg_roles where rolname = current_user',
      );
      expect(role).toEqual({ rolname: 'atrium_app', rolsuper: false, rolbypassrls: false });
    });

    it('keeps every tenant table isolated (architecture test)', async () => {
      expect(await tenancyViolations(database.query)).toEqual([]);
    });

    it('migrates again without change when reopened', async () => {
      await database.close();
      database = await openDatabase(testDatabase.options);
      const [row] = await database.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(row?.n).toBeGreaterThan(0);
    });
  });

  describe('a sound tenant table (fixture)', () => {
    let testDatabase: TestDatabase;
    let database: Database;
    let folder: string;
    let hq: number;
    let acme: number;
    beforeAll(async () => {
      folder = await migrationsWith('fixture_sound', soundTenantTable);
      testDatabase = await createTestDatabase(engine, folder);
      database = await openDatabase(testDatabase.options);
      const rows = await database.db
        .insert(tenants)
        .values([
          { code: 'fx-a', name: 'A' },
          { code: 'fx-b', name: 'B' },
        ])
        .returning({ id: tenants.id });
      hq = rows[0]?.id as number;
      acme = rows[1]?.id as number;
    });
    afterAll(async () => {
      await database?.close();
      await testDatabase?.drop();
      await rm(folder, { recursive: true, force: true });
    });

    it('passes the architecture test', async () => {
      expect(await tenancyViolations(database.query)).toEqual([]);
    });

    it('shows a tenant only its own rows, and nothing without a tenant', async () => {
      await withTenant(database.db, hq, (tx) => tx.execute(sql`insert into fixture_notes (tenant_id, body) values (${hq}, 'hq secret')`));
      await withTenant(database.db, acme, (tx) =>
        tx.execute(sql`insert into fixture_notes (tenant_id, body) values (${acme}, 'acme note')`),
      );
      const seenByAcme = (await withTenant(database.db, acme, (tx) => tx.execute(sql`select body from fixture_notes`))) as RawResult;
      expect(seenByAcme.rows).toEqual([{ body: 'acme note' }]);
      const seenWithout = await database.query('select body from fixture_notes');
      expect(seenWithout).toEqual([]);
    });

    it('refuses a write into another tenant and leaves the data unchanged', async () => {
      await expect(
        withTenant(database.db, acme, (tx) => tx.execute(sql`insert into fixture_notes (tenant_id, body) values (${hq}, 'smuggled')`)),
      ).rejects.toThrow();
      const updated = (await withTenant(database.db, acme, (tx) =>
        tx.execute(sql`update fixture_notes set body = 'x' where tenant_id = ${hq}`),
      )) as RawResult;
      expect(updated.rowCount ?? updated.affectedRows ?? 0).toBe(0);
      const hqRows = (await withTenant(database.db, hq, (tx) => tx.execute(sql`select body from fixture_notes`))) as RawResult;
      expect(hqRows.rows).toEqual([{ body: 'hq secret' }]);
    });

    it('does not leak the tenant setting past the transaction', async () => {
      await withTenant(database.db, hq, async () => {});
      const [row] = await database.query<{ t: string | null }>("select nullif(current_setting('app.tenant_id', true), '') as t");
      expect(row?.t ?? null).toBeNull();
    });

    it('writes a lone statement under its own tenant, whichever tenant its connection served before', async () => {
      const write = (tenant: number, owner: number, body: string) =>
        withTenantStatement(database.db, tenant, (tx) =>
          tx.execute(sql`insert into fixture_notes (tenant_id, body) values (${owner}, ${body})`),
        );
      // tenants alternating, many at once: connections are handed from one tenant to the other
      await Promise.all(
        Array.from({ length: 24 }, (_, i) => (i % 2 ? write(hq, hq, `hq lone ${i}`) : write(acme, acme, `acme lone ${i}`))),
      );
      await expect(write(acme, hq, 'smuggled alone')).rejects.toThrow();
      await write(acme, acme, 'acme after a refusal');
      const bodies = async (tenant: number) =>
        (
          (await withTenant(database.db, tenant, (tx) => tx.execute(sql`select body from fixture_notes`))) as RawResult<{
            body: string;
          }>
        ).rows
          .map((r) => r.body)
          .filter((b) => b.includes('lone') || b.includes('refusal'))
          .sort();
      expect(await bodies(hq)).toEqual(Array.from({ length: 12 }, (_, i) => `hq lone ${2 * i + 1}`).sort());
      expect(await bodies(acme)).toEqual([...Array.from({ length: 12 }, (_, i) => `acme lone ${2 * i}`), 'acme after a refusal'].sort());
      // the tenant those connections keep is theirs alone: the main pool's connections have none
      const [row] = await database.query<{ t: string | null }>("select nullif(current_setting('app.tenant_id', true), '') as t");
      expect(row?.t ?? null).toBeNull();
    });
  });

  describe('a broken tenant table (fixture)', () => {
    it('fails the architecture test, naming each mistake', async () => {
      const folder = await migrationsWith('fixture_broken', brokenTenantTable);
      const testDatabase = await createTestDatabase(engine, folder);
      const database = await openDatabase(testDatabase.options);
      try {
        const problems = await tenancyViolations(database.query);
        expect(problems).toEqual(
          expect.arrayContaining([
            'fixture_orders: row-level security is not enabled',
            'fixture_orders: row-level security is not forced',
            'fixture_orders: no policy checks app.tenant_id',
            'fixture_orders: primary key fixture_orders_pkey omits tenant_id',
            'fixture_orders: unique constraint fixture_orders_number_key omits tenant_id',
            'fixture_order_lines: row-level security is not forced',
            'fixture_order_lines: no policy checks app.tenant_id',
            'fixture_order_lines: foreign key fixture_order_lines_order_id_fkey to fixture_orders omits tenant_id',
            'fixture_order_lines: unique index fixture_order_lines_order omits tenant_id',
          ]),
        );
        expect(problems.some((p) => p.startsWith('fixture_order_lines: row-level security is not enabled'))).toBe(false);
      } finally {
        await database.close();
        await testDatabase.drop();
        await rm(folder, { recursive: true, force: true });
      }
    });
  });
});
