import { and, count, eq } from 'drizzle-orm';
import { type Database, withTenant } from '../db/client';
import { mallPrinters, printerDevices, tenants } from '../db/schema';
import { hashDeviceKey } from '../modules/mall/printer.service';

/** The demo simulator printer's serial number and key in a demo tenant (the README tells them). */
export const demoPrinter = (tenantCode: string) => ({ sn: `SIM-${tenantCode.toUpperCase()}`, key: `demo-printer-${tenantCode}` });

/**
 * A simulator printer for each demo tenant, printing every confirmed order: start it with
 * `npm run printer:sim -- --sn SIM-ACME --key demo-printer-acme`. Skipped when the tenant has printers.
 */
export async function seedDemoPrinters(database: Database, tenantCodes: readonly string[]): Promise<void> {
  for (const code of tenantCodes) {
    const [tenant] = await database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code));
    if (!tenant) continue;
    const { sn, key } = demoPrinter(code);
    const keyHash = await hashDeviceKey(key);
    await withTenant(database.db, tenant.id, async (tx) => {
      const [has] = await tx.select({ n: count() }).from(mallPrinters).where(eq(mallPrinters.tenantId, tenant.id));
      if ((has?.n ?? 0) > 0) return;
      const [taken] = await tx
        .select({ sn: printerDevices.sn })
        .from(printerDevices)
        .where(and(eq(printerDevices.sn, sn)));
      if (taken) return;
      const [printer] = await tx
        .insert(mallPrinters)
        .values({
          tenantId: tenant.id,
          name: code === 'hq' ? '前台小票机（模拟）' : 'Front desk (simulator)',
          vendor: 'simulator',
          paperWidth: 58,
          sn,
          triggers: ['sale.confirmed'],
          createBy: 'system',
        })
        .returning({ id: mallPrinters.id });
      if (printer)
        await tx.insert(printerDevices).values({ vendor: 'simulator', sn, tenantRef: tenant.id, printerId: printer.id, keyHash });
    });
  }
}
