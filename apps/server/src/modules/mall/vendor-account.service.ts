import { type CloudVendor, cloudVendors, type PrinterVendor, type VendorAccount } from '@atrium/contracts';
import { and, eq } from 'drizzle-orm';
import { invalidField } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { type Db, withTenant } from '../../db/client';
import { printerVendorAccounts } from '../../db/schema';
import { secretContext } from '../../secrets/at-rest';
import type { SecretBox } from '../../secrets/box';
import { type PrintDriver, VendorRefused } from './printing/drivers/driver';
import type { VendorEndpoint } from './printing/drivers/http';
import { feieDriver, sunmiDriver, type VendorCredentials, xpyunDriver, yilianyunDriver } from './printing/drivers/vendors';

type Row = typeof printerVendorAccounts.$inferSelect;

const answer = (vendor: CloudVendor, row: Row | undefined): VendorAccount => ({
  vendor,
  accountUser: row?.accountUser ?? null,
  keySet: Boolean(row),
  updateBy: row?.updateBy ?? null,
  updateTime: row ? row.updateTime.toISOString() : null,
});

/** A vendor key as stored: sealed with the tenant's key context (secrets/box.ts), never in plain text. */
const sealKey = (ctx: Ctx, vendor: CloudVendor, key: string) =>
  ctx.request.server.secrets.seal(key, secretContext.vendorKey(ctx.caller.tenantId, vendor));

/** The tenant's accounts at the cloud printer vendors: one per vendor, the key write-only. */
export const vendorAccountService = {
  async list(ctx: Ctx): Promise<VendorAccount[]> {
    const rows = await ctx.tx.select().from(printerVendorAccounts).where(eq(printerVendorAccounts.tenantId, ctx.caller.tenantId));
    return cloudVendors.map((vendor) =>
      answer(
        vendor,
        rows.find((r) => r.vendor === vendor),
      ),
    );
  },

  async save(ctx: Ctx, vendor: CloudVendor, input: { accountUser: string; accountKey?: string }): Promise<VendorAccount> {
    const where = and(eq(printerVendorAccounts.tenantId, ctx.caller.tenantId), eq(printerVendorAccounts.vendor, vendor));
    const [existing] = await ctx.tx.select().from(printerVendorAccounts).where(where);
    const now = new Date();
    if (existing) {
      const [row] = await ctx.tx
        .update(printerVendorAccounts)
        .set({
          accountUser: input.accountUser,
          ...(input.accountKey ? { accountKey: sealKey(ctx, vendor, input.accountKey) } : {}),
          updateBy: ctx.caller.accountId,
          updateTime: now,
        })
        .where(where)
        .returning();
      return answer(vendor, row);
    }
    if (!input.accountKey) throw invalidField('accountKey', 'required', 'value.required');
    const [row] = await ctx.tx
      .insert(printerVendorAccounts)
      .values({
        tenantId: ctx.caller.tenantId,
        vendor,
        accountUser: input.accountUser,
        accountKey: sealKey(ctx, vendor, input.accountKey),
        createBy: ctx.caller.accountId,
        updateBy: ctx.caller.accountId,
      })
      .returning();
    return answer(vendor, row);
  },

  async remove(ctx: Ctx, vendor: CloudVendor): Promise<VendorAccount> {
    await ctx.tx
      .delete(printerVendorAccounts)
      .where(and(eq(printerVendorAccounts.tenantId, ctx.caller.tenantId), eq(printerVendorAccounts.vendor, vendor)));
    return answer(vendor, undefined);
  },
};

const makers: Record<CloudVendor, (endpoint: VendorEndpoint, account: VendorCredentials) => PrintDriver> = {
  feie: feieDriver,
  xpyun: xpyunDriver,
  yilianyun: yilianyunDriver,
  sunmi: sunmiDriver,
};

/**
 * What the print worker asks for a cloud printer's job: the vendor's driver signed with the tenant's
 * own account. A driver is kept while the account is unchanged (Yilianyun's access token lives in it).
 */
export function vendorDrivers(db: Db, endpoints: Record<CloudVendor, VendorEndpoint>, secrets: SecretBox) {
  const cache = new Map<string, { stamp: number; driver: PrintDriver }>();
  return async (tenantId: number, vendor: PrinterVendor): Promise<PrintDriver> => {
    if (!(cloudVendors as readonly string[]).includes(vendor)) throw new VendorRefused(`no driver for ${vendor}`);
    const cloud = vendor as CloudVendor;
    const [row] = await withTenant(db, tenantId, (tx) =>
      tx
        .select()
        .from(printerVendorAccounts)
        .where(and(eq(printerVendorAccounts.tenantId, tenantId), eq(printerVendorAccounts.vendor, cloud))),
    );
    if (!row) throw new VendorRefused(`no ${vendor} account is set up for this tenant (printers → vendor accounts)`);
    const slot = `${tenantId}:${vendor}`;
    const stamp = row.updateTime.getTime();
    const kept = cache.get(slot);
    if (kept?.stamp === stamp) return kept.driver;
    const key = secrets.open(row.accountKey, secretContext.vendorKey(tenantId, cloud));
    const driver = makers[cloud](endpoints[cloud], { user: row.accountUser, key });
    cache.set(slot, { stamp, driver });
    return driver;
  };
}
