import { randomUUID } from 'node:crypto';
import { type ListQueryOf, type PrintJob, type PrintJobStatus, type printJobResource, reprintableStatuses } from '@atrium/contracts';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { formatTime, validTimeZone } from '../../crud/excel';
import { pageOffset } from '../../crud/paging';
import { orderOf, startsWith } from '../../crud/query';
import type { Tx } from '../../db/client';
import { mallPrinters, mallPrintJobs, printOutbox, tenants } from '../../db/schema';
import { tenantJoin } from '../../db/tenant-join';
import { notFound } from '../../errors';
import { saleService } from '../erp/sale/sale.service';
import { fillTemplate, parseMarkup, type ReceiptData, renderText } from './printing/receipt';

type PrinterRow = typeof mallPrinters.$inferSelect;
type JobRow = typeof mallPrintJobs.$inferSelect;

export function toPrintJob(row: JobRow, printerName: string): PrintJob {
  return {
    id: row.id,
    printerId: row.printerId,
    printerName,
    idempotencyKey: row.idempotencyKey,
    bizType: row.bizType,
    bizNo: row.bizNo,
    text: row.text,
    copies: row.copies,
    status: row.status as PrintJobStatus,
    vendorJobId: row.vendorJobId,
    attempts: row.attempts,
    lastError: row.lastError,
    printedTime: row.printedTime ? row.printedTime.toISOString() : null,
    reprintOf: row.reprintOf,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

/**
 * Adds a job and its outbox row in the caller's transaction: committed together with what caused it
 * (a confirmed order), or not at all. A key that exists already adds nothing (a retried trigger).
 */
export async function enqueue(
  tx: Tx,
  tenantId: number,
  printer: PrinterRow,
  job: { key: string; bizType: string; bizId: number | null; bizNo: string | null; data: ReceiptData; by: string | null },
): Promise<number | null> {
  const markup = fillTemplate(printer.template, job.data, printer.paperWidth);
  const text = renderText(parseMarkup(markup), printer.paperWidth);
  const [row] = await tx
    .insert(mallPrintJobs)
    .values({
      tenantId,
      printerId: printer.id,
      idempotencyKey: job.key,
      bizType: job.bizType,
      bizId: job.bizId,
      bizNo: job.bizNo,
      markup,
      text,
      copies: printer.copies,
      createBy: job.by,
    })
    .onConflictDoNothing()
    .returning({ id: mallPrintJobs.id });
  if (!row) return null;
  await tx.insert(printOutbox).values({ tenantRef: tenantId, jobId: row.id });
  return row.id;
}

/**
 * `2026-11-24 18:05` in the time zone of the browser that asked for the print (a cashier at the shop),
 * else the server's `PRINT_TIME_ZONE`: a receipt never shows UTC to a shop eight hours away from it.
 */
function receiptTime(ctx: Ctx, date: Date): string {
  const header = ctx.request.headers['x-timezone'];
  const zone = validTimeZone(typeof header === 'string' ? header : null) ?? ctx.request.server.config.PRINT_TIME_ZONE;
  return formatTime(date.toISOString(), zone).slice(0, 16);
}

async function shopName(ctx: Ctx): Promise<string> {
  const [t] = await ctx.tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, ctx.caller.tenantId));
  return t?.name ?? '';
}

type SaleRow = NonNullable<Awaited<ReturnType<typeof saleService.get>>>;

async function saleReceipt(ctx: Ctx, saleId: number): Promise<ReceiptData & { id: number }> {
  const sale = await saleService.get(ctx, saleId);
  if (!sale) throw notFound();
  return receiptOf(ctx, sale);
}

async function receiptOf(ctx: Ctx, sale: SaleRow): Promise<ReceiptData & { id: number }> {
  return {
    id: sale.id,
    shop: await shopName(ctx),
    orderNo: sale.orderNo,
    time: receiptTime(ctx, new Date(sale.confirmTime ?? sale.createTime)),
    lines: sale.items.map((i) => ({
      name: [i.productName, ...i.specValues].join(' '),
      quantity: i.quantity,
      amount: i.amount,
    })),
    total: sale.totalAmount,
    member: sale.memberName,
  };
}

async function printerOf(ctx: Ctx, printerId: number): Promise<PrinterRow> {
  const [printer] = await ctx.tx
    .select()
    .from(mallPrinters)
    .where(and(eq(mallPrinters.tenantId, ctx.caller.tenantId), eq(mallPrinters.id, printerId)));
  if (!printer) throw notFound();
  if (printer.status !== '0') throw refused('printerId', 'disabled', 'printer.disabled');
  return printer;
}

type JobQuery = ListQueryOf<typeof printJobResource>;

export const printJobService = {
  /** One job per enabled printer that prints on `sale.confirmed` (for the order's warehouse, or any). */
  async onSaleConfirmed(ctx: Ctx, saleId: number): Promise<number[]> {
    const t = ctx.caller.tenantId;
    const printers = await ctx.tx
      .select()
      .from(mallPrinters)
      .where(and(eq(mallPrinters.tenantId, t), eq(mallPrinters.status, '0'), sql`${mallPrinters.triggers} @> '["sale.confirmed"]'::jsonb`));
    if (!printers.length) return [];
    const data = await saleReceipt(ctx, saleId);
    const sale = await saleService.get(ctx, saleId);
    const ids: number[] = [];
    for (const printer of printers) {
      if (printer.warehouseId && printer.warehouseId !== sale?.warehouseId) continue;
      const id = await enqueue(ctx.tx, t, printer, {
        key: `sale:${saleId}:sale.confirmed:${printer.id}`,
        bizType: 'sale',
        bizId: saleId,
        bizNo: data.orderNo,
        data,
        by: ctx.caller.accountId,
      });
      if (id) ids.push(id);
    }
    return ids;
  },

  /** A print someone asked for: always a new job, for an order that was sold (not a draft, not cancelled). */
  async printSale(ctx: Ctx, saleId: number, printerId: number): Promise<number> {
    const sale = await saleService.get(ctx, saleId);
    if (!sale) throw notFound();
    if (sale.status === 'draft' || sale.status === 'cancelled') throw refused('id', 'status', 'sale.notPrintable');
    const printer = await printerOf(ctx, printerId);
    const data = await receiptOf(ctx, sale);
    return (await enqueue(ctx.tx, ctx.caller.tenantId, printer, {
      key: `sale:${saleId}:manual:${printer.id}:${randomUUID()}`,
      bizType: 'sale',
      bizId: saleId,
      bizNo: data.orderNo,
      data,
      by: ctx.caller.accountId,
    })) as number;
  },

  async testPrint(ctx: Ctx, printerId: number): Promise<number> {
    const printer = await printerOf(ctx, printerId);
    const data: ReceiptData = {
      shop: await shopName(ctx),
      title: '测试页 Test page',
      orderNo: `TEST-${printer.sn}`,
      time: receiptTime(ctx, new Date()),
      lines: [{ name: '打印测试 Print test', quantity: 1, amount: 0 }],
      total: 0,
      member: null,
    };
    return (await enqueue(ctx.tx, ctx.caller.tenantId, printer, {
      key: `test:${printer.id}:${randomUUID()}`,
      bizType: 'test',
      bizId: null,
      bizNo: data.orderNo,
      data,
      by: ctx.caller.accountId,
    })) as number;
  },

  async list(ctx: Ctx, query: JobQuery) {
    const t = ctx.caller.tenantId;
    const where = and(
      eq(mallPrintJobs.tenantId, t),
      query.printerId ? eq(mallPrintJobs.printerId, query.printerId) : undefined,
      query.status ? eq(mallPrintJobs.status, query.status) : undefined,
      startsWith(mallPrintJobs.bizNo, query.bizNo),
    );
    const rows = await ctx.tx
      .select({ job: mallPrintJobs, printerName: mallPrinters.name })
      .from(mallPrintJobs)
      .innerJoin(mallPrinters, tenantJoin(mallPrinters.id, mallPrintJobs.printerId))
      .where(where)
      .orderBy(...orderOf(query.sort, { createTime: mallPrintJobs.createTime }, mallPrintJobs.id))
      .limit(pageOffset(query).limit)
      .offset(pageOffset(query).offset);
    const [total] = await ctx.tx.select({ n: count() }).from(mallPrintJobs).where(where);
    return { list: rows.map((r) => toPrintJob(r.job, r.printerName)), total: total?.n ?? 0 };
  },

  async get(ctx: Ctx, id: number): Promise<PrintJob | null> {
    const [row] = await ctx.tx
      .select({ job: mallPrintJobs, printerName: mallPrinters.name })
      .from(mallPrintJobs)
      .innerJoin(mallPrinters, tenantJoin(mallPrinters.id, mallPrintJobs.printerId))
      .where(and(eq(mallPrintJobs.tenantId, ctx.caller.tenantId), eq(mallPrintJobs.id, id)));
    return row ? toPrintJob(row.job, row.printerName) : null;
  },

  /** Only a job nobody is printing: waiting to be sent, or whose fate is unknown. */
  async cancel(ctx: Ctx, id: number): Promise<PrintJob> {
    const t = ctx.caller.tenantId;
    const before = await printJobService.get(ctx, id);
    if (!before) throw notFound();
    const [row] = await ctx.tx
      .update(mallPrintJobs)
      .set({ status: 'CANCELLED', updateTime: new Date() })
      .where(and(eq(mallPrintJobs.tenantId, t), eq(mallPrintJobs.id, id), inArray(mallPrintJobs.status, ['PENDING', 'UNKNOWN'])))
      .returning();
    if (!row) throw refused('status', 'state', 'printJob.cancelState');
    await ctx.tx.delete(printOutbox).where(and(eq(printOutbox.tenantRef, t), eq(printOutbox.jobId, id)));
    return (await printJobService.get(ctx, id)) as PrintJob;
  },

  /**
   * Prints an ended job again (`reprintableStatuses`): a new PENDING job with the same receipt (as it was
   * rendered, copies included) for the same printer, linked to the original by `reprintOf`. The original
   * keeps its status. A job still PENDING or SENT is refused: it is on its way, and a second one would
   * print twice. The printer must still be enabled.
   */
  async reprint(ctx: Ctx, id: number): Promise<number> {
    const t = ctx.caller.tenantId;
    const [found] = await ctx.tx
      .select()
      .from(mallPrintJobs)
      .where(and(eq(mallPrintJobs.tenantId, t), eq(mallPrintJobs.id, id)))
      .for('update');
    if (!found) throw notFound();
    if (!reprintableStatuses.includes(found.status as PrintJobStatus))
      throw refused('status', 'state', 'printJob.reprintState', { status: found.status });
    const printer = await printerOf(ctx, found.printerId);
    const [row] = await ctx.tx
      .insert(mallPrintJobs)
      .values({
        tenantId: t,
        printerId: printer.id,
        idempotencyKey: `reprint:${found.id}:${randomUUID()}`,
        bizType: found.bizType,
        bizId: found.bizId,
        bizNo: found.bizNo,
        markup: found.markup,
        text: found.text,
        copies: found.copies,
        reprintOf: found.id,
        createBy: ctx.caller.accountId,
      })
      .returning({ id: mallPrintJobs.id });
    const jobId = (row as { id: number }).id;
    await ctx.tx.insert(printOutbox).values({ tenantRef: t, jobId });
    return jobId;
  },
};
