import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/client';
import { contractHistory, contractingChanges, migrationFindings, migrationRuleViolations, olderRelease } from '../src/db/migration-rules';
import { migrationsWith } from './fixtures/migrations';

// Expand, then contract (docs/adr/031): reads the SQL files only, no database
describe('migration rule: expand, then contract', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });
  const fixture = async (tag: string, statements: string[]) => {
    const folder = await migrationsWith(tag, statements);
    folders.push(folder);
    return folder;
  };
  // the fixture comes after the committed migrations, whatever their number: compare without it
  const unnumbered = (violation: string) => violation.replace(/^\d{4}_/, '').replace(/ \(a contract step.*$/, '');

  it('the committed migrations only expand, or are contract steps marked or kept as history', () => {
    expect(migrationRuleViolations()).toEqual([]);
    // the history list is what it says: every entry is a statement of the committed migrations
    const found = new Set(migrationFindings(migrationsFolder).map((f) => `${f.migration}: ${f.change}`));
    for (const key of Object.keys(contractHistory)) expect(found.has(key), key).toBe(true);
  });

  it('fails a migration that drops or renames a column, drops an index or adds a NOT NULL column without a default', async () => {
    const folder = await fixture('fixture_contract', [
      'ALTER TABLE "accounts" DROP COLUMN "nickname";',
      'ALTER TABLE "accounts" RENAME COLUMN "email" TO "mail";',
      'DROP INDEX "sessions_online_idx";',
      'ALTER TABLE "accounts" ADD COLUMN "region" varchar(20) NOT NULL;',
      'DROP TABLE "oper_logs";',
      'ALTER TABLE "tenants" RENAME TO "companies";',
      // expand-only statements pass
      'ALTER TABLE "accounts" ADD COLUMN "title" varchar(20) DEFAULT \'\' NOT NULL, ADD COLUMN "note" text;',
      'CREATE INDEX "accounts_title_idx" ON "accounts" ("title");',
    ]);
    const violations = migrationRuleViolations(folder);
    expect(violations.map(unnumbered)).toEqual([
      'fixture_contract: drops column accounts.nickname',
      'fixture_contract: renames column accounts.email to mail',
      'fixture_contract: drops index sessions_online_idx',
      'fixture_contract: adds column accounts.region NOT NULL without a default',
      'fixture_contract: drops table oper_logs',
      'fixture_contract: renames table tenants to companies',
    ]);
  });

  it('passes a contract step marked with what it removes and an older release since which nothing uses it', async () => {
    const folder = await fixture('fixture_marked', [
      '-- contract: accounts.nickname (no longer used since 0.2.0)\nALTER TABLE "accounts" DROP COLUMN "nickname";',
      '\n-- contract: sessions_online_idx (no longer used since v0.2.1)\nDROP INDEX "sessions_online_idx";',
      // a marker without its release does not count
      '\n-- contract: accounts.email\nALTER TABLE "accounts" DROP COLUMN "email";',
      // nor one naming the release the migration ships in: the removal comes a release later
      '\n-- contract: accounts.phone (no longer used since 0.3.0)\nALTER TABLE "accounts" DROP COLUMN "phone";',
    ]);
    expect(migrationRuleViolations(folder, contractHistory, '0.3.0').map(unnumbered)).toEqual([
      'fixture_marked: drops column accounts.email',
      'fixture_marked: drops column accounts.phone: marked as no longer used since 0.3.0, which is not older than this release 0.3.0',
    ]);
  });

  it('orders releases by their numbers', () => {
    expect(olderRelease('0.2.0', '0.10.0')).toBe(true);
    expect(olderRelease('v0.2.1', '0.2.0')).toBe(false);
    expect(olderRelease('0.2.0', '0.2.0')).toBe(false);
    expect(olderRelease('1.0.0', 'unknown')).toBe(true);
  });

  it('reads the changes a statement makes, not its comments or string literals', () => {
    expect(contractingChanges('-- DROP TABLE "x"\nCREATE TABLE "y" ("a" text NOT NULL)')).toEqual([]);
    expect(contractingChanges(`COMMENT ON TABLE "y" IS 'we DROP COLUMN nothing'`)).toEqual([]);
    expect(contractingChanges('ALTER TABLE "t" ALTER COLUMN "a" SET NOT NULL')).toEqual(['makes column t.a NOT NULL']);
    expect(contractingChanges('ALTER TABLE "t" DROP CONSTRAINT "t_code_key"')).toEqual(['drops constraint t.t_code_key']);
    expect(contractingChanges('DROP POLICY "t_tenant_isolation" ON "t"')).toEqual(['drops policy t.t_tenant_isolation']);
    expect(contractingChanges('DROP TRIGGER IF EXISTS "t_counts" ON "public"."t"')).toEqual(['drops trigger t.t_counts']);
    expect(contractingChanges('ALTER TABLE "t" ADD CONSTRAINT "t_fk" FOREIGN KEY ("a") REFERENCES "u"("id")')).toEqual([]);
    expect(contractingChanges('ALTER TABLE "t" ALTER COLUMN "a" SET DATA TYPE bigint')).toEqual(['changes the type of column t.a']);
    expect(contractingChanges('ALTER TABLE "t" ADD COLUMN "n" bigint GENERATED ALWAYS AS IDENTITY NOT NULL')).toEqual([]);
    expect(contractingChanges('ALTER TABLE "t" ADD COLUMN "p" numeric(10,2) NOT NULL')).toEqual([
      'adds column t.p NOT NULL without a default',
    ]);
  });
});
