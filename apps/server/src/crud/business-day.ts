import { eq } from 'drizzle-orm';
import { tenants } from '../db/schema';
import type { Ctx } from './context';

/**
 * The zone whose calendar day is the tenant's business day — its document numbers, its "today" and "this
 * month" — whoever asks and wherever their browser is: the tenant's own setting, else the platform's
 * (TIME_ZONE). How a time is *shown* is the browser's zone; which day it *counts* for is this one.
 */
export async function tenantTimeZone(ctx: Ctx): Promise<string> {
  const [row] = await ctx.tx.select({ timeZone: tenants.timeZone }).from(tenants).where(eq(tenants.id, ctx.caller.tenantId));
  return row?.timeZone ?? ctx.request.server.config.TIME_ZONE;
}

/** yyyy-mm-dd of an instant in a time zone, or of `daysBack` days before it. */
export function dayIn(timeZone: string, now: Date = new Date(), daysBack = 0): string {
  const date = new Date(now.getTime() - daysBack * 86_400_000);
  return new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}
