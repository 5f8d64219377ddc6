import { sql } from 'drizzle-orm';
import { dayIn, tenantTimeZone } from '../../../crud/business-day';
import type { Ctx } from '../../../crud/context';

/**
 * The next document number of the tenant for today, the tenant's business day (its time zone, not
 * UTC's nor the caller's): `SO` + yyyymmdd + 6 digits. The counter row is
 * taken with one upsert (`… ON CONFLICT DO UPDATE SET last = last + 1 RETURNING last`), so two
 * transactions never get the same number; a rolled-back one may leave a gap.
 */
export async function nextDocNo(ctx: Ctx, prefix: string, now = new Date()): Promise<string> {
  const day = dayIn(await tenantTimeZone(ctx), now).replaceAll('-', '');
  const result = (await ctx.tx.execute(sql`insert into erp_doc_sequences (tenant_id, prefix, day, last)
      values (${ctx.caller.tenantId}, ${prefix}, ${day}, 1)
      on conflict (tenant_id, prefix, day) do update set last = erp_doc_sequences.last + 1
      returning last`)) as unknown as { rows: { last: string | number }[] };
  return `${prefix}${day}${String(result.rows[0]?.last).padStart(6, '0')}`;
}
