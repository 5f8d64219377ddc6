import type { Config } from '../config';
import type { Database } from '../db/client';
import { tenants } from '../db/schema';
import { seedDemoErp } from './erp';
import { seedDemoIdentity, seedFirstAdmin, seedMenus } from './identity';
import { seedDemoPrinters } from './printers';
import { seedDemoGoods, seedDemoRelease } from './showcase';
import { seedDemoOrganisation } from './system';
import { seedDemoApprovals, seedDemoServices, seedDemoSets } from './templates';

export const demoTenants = [
  { code: 'hq', name: 'Atrium HQ', contact: 'admin@atrium.example', timeZone: 'Asia/Shanghai' },
  { code: 'acme', name: 'Acme Trading', contact: 'ops@acme.example', timeZone: 'Asia/Shanghai' },
] as const;

/**
 * Demo data for `SEED=demo`. Idempotent: a second start on the same data directory changes nothing.
 * Each domain adds its own seed step here.
 */
export async function seed(database: Database, config: Config): Promise<void> {
  // the menu catalogue is reference data, not demo data: every mode has it
  await seedMenus(database);
  if (config.SEED !== 'demo') {
    await seedFirstAdmin(database, config);
    return;
  }
  await database.db
    .insert(tenants)
    .values([...demoTenants])
    .onConflictDoNothing({ target: tenants.code });
  await seedDemoIdentity(database);
  await seedDemoOrganisation(
    database,
    demoTenants.map((t) => t.code),
  );
  await seedDemoErp(
    database,
    demoTenants.map((t) => t.code),
  );
  await seedDemoPrinters(
    database,
    demoTenants.map((t) => t.code),
  );
  await seedDemoGoods(
    database,
    demoTenants.map((t) => t.code),
  );
  await seedDemoRelease(database, 'hq');
  await seedDemoSets(
    database,
    demoTenants.map((t) => t.code),
  );
  await seedDemoServices(
    database,
    demoTenants.map((t) => t.code),
  );
  await seedDemoApprovals(
    database,
    demoTenants.map((t) => t.code),
  );
}
