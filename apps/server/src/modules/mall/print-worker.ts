import { cloudVendors, mqttVendors, type PrinterVendor, printWorkerErrors } from '@atrium/contracts';
import { type PrinterAckMessage, type PrinterState, printerStates } from '@atrium/contracts/printer-protocol';
import { and, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, withTenant } from '../../db/client';
import { mallPrinters, mallPrintJobs, printOutbox, tenants, tenantUsers } from '../../db/schema';
import { tenantJoin } from '../../db/tenant-join';
import type { PublishInput } from '../realtime/realtime.service';
import type { PrinterIdentity } from '../realtime/rules';
import { deviceIsCurrent } from './printer.service';
import { type PrintDriver, PrinterUnavailable, TransportError } from './printing/drivers/driver';
import { parseMarkup } from './printing/receipt';

export type PrintWorkerOptions = {
  db: Db;
  log: FastifyBaseLogger;
  /** Drivers that serve every tenant (the built-in protocol). */
  drivers: Partial<Record<PrinterVendor, PrintDriver>>;
  /** A cloud vendor's driver signed with the tenant's own account there; refuses when it has none. */
  vendorDriver?(tenantId: number, vendor: PrinterVendor): Promise<PrintDriver>;
  publish(input: PublishInput): Promise<boolean>;
  /** How often the outbox is looked at without a kick. */
  pollMs?: number;
  /** How long a send may take before the lease runs out and the job's fate counts as unknown. */
  leaseMs?: number;
  /** Attempts after which a job that keeps meeting transport errors is FAILED. */
  maxAttempts?: number;
  /** First retry delay; it doubles with each attempt. */
  backoffMs?: number;
  /** How long a job may wait for an offline printer before it is EXPIRED instead of printed late. */
  expireMs?: number;
  /** How often a cloud vendor is asked whether the jobs it took have printed (and device jobs are checked for acks). */
  followUpMs?: number;
  /**
   * How long a device of the built-in protocol may take to ack a job it was sent: after that the job is
   * UNKNOWN (it may have printed, so it is not sent again; a late ack still counts).
   */
  ackMs?: number;
  /** How often a cloud vendor is asked whether each of the tenant's printers there is online. */
  statusMs?: number;
};

const BATCH = 20;

/**
 * The print outbox's worker. Jobs are written with what caused them (same transaction); the worker
 * leases due rows, sends each through its printer's driver and records the outcome. A lease that ran
 * out (the process died mid-send) makes the job UNKNOWN: it may have printed, so it is not sent again.
 * Transport errors retry with exponential backoff, then FAILED; an offline printer's jobs wait.
 */
export class PrintWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly expireMs: number;
  private readonly followUpMs: number;
  private lastFollowUp = 0;
  private readonly ackMs: number;
  private lastAckCheck = 0;
  private readonly statusMs: number;
  private lastStatus = 0;

  constructor(private readonly options: PrintWorkerOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoffMs = options.backoffMs ?? 2000;
    this.expireMs = options.expireMs ?? 86_400_000;
    this.followUpMs = options.followUpMs ?? 10_000;
    this.ackMs = options.ackMs ?? 300_000;
    this.statusMs = options.statusMs ?? 60_000;
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Looks at the outbox now (after a commit that added jobs, or a printer coming online). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'print outbox pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    const { db } = this.options;
    if (this.options.vendorDriver && Date.now() - this.lastFollowUp >= this.followUpMs) {
      this.lastFollowUp = Date.now();
      await this.followUp().catch((error: unknown) => this.options.log.warn({ err: error }, 'print job follow-up failed'));
    }
    if (Date.now() - this.lastAckCheck >= Math.min(this.followUpMs, this.ackMs)) {
      this.lastAckCheck = Date.now();
      await this.unacknowledged().catch((error: unknown) => this.options.log.warn({ err: error }, 'unacknowledged print jobs not checked'));
    }
    if (this.options.vendorDriver && Date.now() - this.lastStatus >= this.statusMs) {
      this.lastStatus = Date.now();
      await this.cloudStates().catch((error: unknown) => this.options.log.warn({ err: error }, 'cloud printer states not read'));
    }
    // leases that ran out: their sender stopped mid-send, so nobody knows whether the job printed
    const lost = await db
      .delete(printOutbox)
      .where(sql`${printOutbox.leasedUntil} < now()`)
      .returning({ tenantRef: printOutbox.tenantRef, jobId: printOutbox.jobId });
    for (const row of lost) {
      await withTenant(db, row.tenantRef, (tx) =>
        tx
          .update(mallPrintJobs)
          .set({ status: 'UNKNOWN', lastError: printWorkerErrors.senderStopped, updateTime: new Date() })
          .where(and(eq(mallPrintJobs.tenantId, row.tenantRef), eq(mallPrintJobs.id, row.jobId), eq(mallPrintJobs.status, 'PENDING'))),
      );
    }
    // one row at a time, leased just before it is sent: a crash leaves at most the job being sent UNKNOWN
    for (let sent = 0; sent < BATCH; sent++) {
      if (this.stopped) return;
      // the lease's end is also its token: a sender only touches the row while it still holds that lease
      const lease = new Date(Date.now() + this.leaseMs);
      const leased = await db.execute(sql`
        update print_outbox set leased_until = ${lease.toISOString()}::timestamptz
        where (tenant_ref, job_id) = (
          select tenant_ref, job_id from print_outbox
          where leased_until is null and due_at <= now()
          order by due_at limit 1 for update skip locked)
        returning tenant_ref, job_id`);
      const [row] = (leased as unknown as { rows: { tenant_ref: string | number; job_id: string | number }[] }).rows;
      if (!row) return;
      await this.dispatch(Number(row.tenant_ref), Number(row.job_id), lease);
    }
    this.again = true;
  }

  private async dispatch(tenantId: number, jobId: number, lease: Date): Promise<void> {
    const { db } = this.options;
    const outbox = and(eq(printOutbox.tenantRef, tenantId), eq(printOutbox.jobId, jobId), eq(printOutbox.leasedUntil, lease));
    const found = await withTenant(db, tenantId, async (tx) => {
      const [row] = await tx
        .select({ job: mallPrintJobs, printer: mallPrinters })
        .from(mallPrintJobs)
        .innerJoin(mallPrinters, tenantJoin(mallPrinters.id, mallPrintJobs.printerId))
        .where(and(eq(mallPrintJobs.tenantId, tenantId), eq(mallPrintJobs.id, jobId)));
      return row ?? null;
    });
    if (found?.job.status !== 'PENDING') {
      await db.delete(printOutbox).where(outbox);
      return;
    }
    const { job, printer } = found;
    const vendor = printer.vendor as PrinterVendor;
    const setJob = (set: Partial<typeof mallPrintJobs.$inferInsert>) =>
      withTenant(db, tenantId, (tx) =>
        tx
          .update(mallPrintJobs)
          .set({ ...set, updateTime: new Date() })
          .where(and(eq(mallPrintJobs.tenantId, tenantId), eq(mallPrintJobs.id, jobId), eq(mallPrintJobs.status, 'PENDING'))),
      );
    try {
      const driver = this.options.drivers[vendor] ?? (await this.options.vendorDriver?.(tenantId, vendor));
      if (!driver) throw new TransportError(`no driver for ${printer.vendor}`);
      const outcome = await driver.print(
        {
          id: printer.id,
          tenantId,
          vendor,
          sn: printer.sn,
          paperWidth: printer.paperWidth,
          state: printer.state,
        },
        { id: job.id, blocks: parseMarkup(job.markup), text: job.text, copies: job.copies },
      );
      const now = new Date();
      await setJob({
        status: outcome.result === 'printed' ? 'PRINTED' : 'SENT',
        vendorJobId: outcome.vendorJobId ?? null,
        attempts: job.attempts + 1,
        sentTime: now,
        printedTime: outcome.result === 'printed' ? now : null,
        lastError: null,
      });
      await db.delete(printOutbox).where(outbox);
      await this.announceJob(tenantId, job.id, printer.id, outcome.result === 'printed' ? 'PRINTED' : 'SENT');
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      if (error instanceof PrinterUnavailable && Date.now() - job.createTime.getTime() >= this.expireMs) {
        // a receipt printed a day late is worse than none: the job ends, and says why
        await setJob({ status: 'EXPIRED', lastError: message });
        await db.delete(printOutbox).where(outbox);
        await this.announceJob(tenantId, job.id, printer.id, 'EXPIRED');
        return;
      }
      if (error instanceof PrinterUnavailable) {
        // waits for the printer, without counting an attempt; it coming online kicks the worker
        await db
          .update(printOutbox)
          .set({ leasedUntil: null, dueAt: new Date(Date.now() + this.pollMs * 5) })
          .where(outbox);
        return;
      }
      const attempts = job.attempts + 1;
      if (error instanceof TransportError && attempts < this.maxAttempts) {
        await setJob({ attempts, lastError: message });
        await db
          .update(printOutbox)
          .set({ leasedUntil: null, dueAt: new Date(Date.now() + this.backoffMs * 2 ** (attempts - 1)) })
          .where(outbox);
        return;
      }
      await setJob({ status: 'FAILED', attempts, lastError: message });
      await db.delete(printOutbox).where(outbox);
      await this.announceJob(tenantId, job.id, printer.id, 'FAILED');
    }
  }

  /**
   * Cloud vendors say a job printed only when asked: SENT jobs of cloud printers (sent within the
   * expiry window) are looked up with the vendor, and move to PRINTED or FAILED as it answers.
   */
  private async followUp(): Promise<void> {
    const { db, vendorDriver } = this.options;
    if (!vendorDriver) return;
    const since = new Date(Date.now() - this.expireMs);
    const tenantRows = await db.select({ id: tenants.id }).from(tenants);
    for (const { id: tenantId } of tenantRows) {
      const sent = await withTenant(db, tenantId, (tx) =>
        tx
          .select({ id: mallPrintJobs.id, vendorJobId: mallPrintJobs.vendorJobId, printerId: mallPrinters.id, vendor: mallPrinters.vendor })
          .from(mallPrintJobs)
          .innerJoin(mallPrinters, tenantJoin(mallPrinters.id, mallPrintJobs.printerId))
          .where(
            and(
              eq(mallPrintJobs.tenantId, tenantId),
              eq(mallPrintJobs.status, 'SENT'),
              isNotNull(mallPrintJobs.vendorJobId),
              inArray(mallPrinters.vendor, [...cloudVendors]),
              gt(mallPrintJobs.sentTime, since),
            ),
          )
          .limit(BATCH),
      );
      for (const job of sent) {
        const driver = await vendorDriver(tenantId, job.vendor as PrinterVendor).catch(() => null);
        if (!driver?.queryJob) continue;
        const state = await driver.queryJob(job.vendorJobId as string).catch(() => 'waiting' as const);
        if (state === 'waiting') continue;
        const status = state === 'printed' ? 'PRINTED' : 'FAILED';
        const [moved] = await withTenant(db, tenantId, (tx) =>
          tx
            .update(mallPrintJobs)
            .set({
              status,
              printedTime: status === 'PRINTED' ? new Date() : null,
              lastError: status === 'FAILED' ? 'the vendor reports the job failed' : null,
              updateTime: new Date(),
            })
            .where(and(eq(mallPrintJobs.tenantId, tenantId), eq(mallPrintJobs.id, job.id), eq(mallPrintJobs.status, 'SENT')))
            .returning({ id: mallPrintJobs.id }),
        );
        if (moved) await this.announceJob(tenantId, job.id, job.printerId, status);
      }
    }
  }

  /**
   * A device of the built-in protocol acks each job it is sent; one that took a job and said nothing for
   * `ackMs` (it lost power, its paper jammed and it restarted, its ack was lost) leaves the job SENT for
   * ever. Such a job becomes UNKNOWN, as a job whose sender died does: it may have printed, so it is not
   * sent again (someone who finds no receipt reprints it), and an ack that comes after all still applies.
   */
  private async unacknowledged(): Promise<void> {
    const { db } = this.options;
    const before = new Date(Date.now() - this.ackMs);
    const tenantRows = await db.select({ id: tenants.id }).from(tenants);
    for (const { id: tenantId } of tenantRows) {
      const devices = db
        .select({ id: mallPrinters.id })
        .from(mallPrinters)
        .where(and(eq(mallPrinters.tenantId, tenantId), inArray(mallPrinters.vendor, [...mqttVendors])));
      const timedOut = await withTenant(db, tenantId, (tx) =>
        tx
          .update(mallPrintJobs)
          .set({ status: 'UNKNOWN', lastError: printWorkerErrors.noAck, updateTime: new Date() })
          .where(
            and(
              eq(mallPrintJobs.tenantId, tenantId),
              eq(mallPrintJobs.status, 'SENT'),
              lt(mallPrintJobs.sentTime, before),
              inArray(mallPrintJobs.printerId, devices),
            ),
          )
          .returning({ id: mallPrintJobs.id, printerId: mallPrintJobs.printerId }),
      );
      for (const job of timedOut) await this.announceJob(tenantId, job.id, job.printerId, 'UNKNOWN');
    }
  }

  /**
   * Cloud printers have no connection here to watch: their vendor is asked, and a printer whose state
   * changed is recorded and announced like a device's status (jobs waiting for it go out when it is
   * online). A tenant without an account at the vendor, or a vendor that does not answer, leaves the
   * state as it was.
   */
  private async cloudStates(): Promise<void> {
    const { db, vendorDriver } = this.options;
    if (!vendorDriver) return;
    const tenantRows = await db.select({ id: tenants.id }).from(tenants);
    for (const { id: tenantId } of tenantRows) {
      const printers = await withTenant(db, tenantId, (tx) =>
        tx
          .select({ id: mallPrinters.id, sn: mallPrinters.sn, vendor: mallPrinters.vendor, state: mallPrinters.state })
          .from(mallPrinters)
          .where(and(eq(mallPrinters.tenantId, tenantId), inArray(mallPrinters.vendor, [...cloudVendors]), eq(mallPrinters.status, '0'))),
      );
      for (const printer of printers) {
        const driver = await vendorDriver(tenantId, printer.vendor as PrinterVendor).catch(() => null);
        if (!driver?.queryStatus) continue;
        const state = await driver.queryStatus(printer.sn).catch(() => null);
        if (state === null) continue;
        if (state !== printer.state) await this.setState({ tenantId, printerId: printer.id }, state);
        else
          await withTenant(db, tenantId, (tx) =>
            tx
              .update(mallPrinters)
              .set({ lastSeen: new Date() })
              .where(and(eq(mallPrinters.tenantId, tenantId), eq(mallPrinters.id, printer.id))),
          );
      }
    }
  }

  /** Every account of the tenant hears about its printers (the printer page follows live). */
  private async announce(tenantId: number, payload: Record<string, unknown>) {
    const refs = await withTenant(this.options.db, tenantId, (tx) =>
      tx.select({ ref: tenantUsers.accountRef }).from(tenantUsers).where(eq(tenantUsers.tenantId, tenantId)),
    );
    await this.options.publish({ accountRefs: refs.map((r) => r.ref), kind: 'printer', payload: { ...payload, tenantId } });
  }

  private announceJob(tenantId: number, jobId: number, printerId: number, status: string) {
    return this.announce(tenantId, { event: 'job', jobId, printerId, status }).catch(() => {});
  }

  /**
   * A device's ack: its job (its own printer's, not another's) becomes PRINTED or FAILED. `printer` is
   * who the connection signed in as; once that printer is deleted, re-keyed, renamed to another serial
   * number or disabled, nothing the connection says is applied (to it or to whoever has the number now).
   */
  async onAck(printer: PrinterIdentity, payload: Buffer): Promise<void> {
    let ack: PrinterAckMessage;
    try {
      ack = JSON.parse(payload.toString('utf8')) as PrinterAckMessage;
    } catch {
      return;
    }
    if (!Number.isSafeInteger(ack.jobId) || (ack.status !== 'printed' && ack.status !== 'failed')) return;
    if (!(await deviceIsCurrent(this.options.db, printer))) return;
    const status = ack.status === 'printed' ? 'PRINTED' : 'FAILED';
    const { tenantId, printerId } = printer;
    const [row] = await withTenant(this.options.db, tenantId, (tx) =>
      tx
        .update(mallPrintJobs)
        .set({
          status,
          printedTime: status === 'PRINTED' ? new Date() : null,
          lastError: status === 'FAILED' ? String(ack.reason ?? 'failed').slice(0, 500) : null,
          updateTime: new Date(),
        })
        .where(
          and(
            eq(mallPrintJobs.tenantId, tenantId),
            eq(mallPrintJobs.id, ack.jobId),
            eq(mallPrintJobs.printerId, printerId),
            // PENDING too: a fast device acks before the sender has recorded SENT (which then changes nothing)
            inArray(mallPrintJobs.status, ['PENDING', 'SENT', 'UNKNOWN']),
          ),
        )
        .returning({ id: mallPrintJobs.id }),
    );
    if (row) await this.announceJob(tenantId, row.id, printerId, status);
  }

  /** A device's status (or its last will): its printer's state, as for acks; coming online sends what waited. */
  async onStatus(printer: PrinterIdentity, payload: Buffer): Promise<void> {
    let state: PrinterState;
    try {
      state = (JSON.parse(payload.toString('utf8')) as { state: PrinterState }).state;
    } catch {
      return;
    }
    if (!printerStates.includes(state)) return;
    if (await deviceIsCurrent(this.options.db, printer)) await this.setState(printer, state);
  }

  async setState(printer: Pick<PrinterIdentity, 'tenantId' | 'printerId'>, state: PrinterState): Promise<void> {
    const { db } = this.options;
    const changed = await withTenant(db, printer.tenantId, (tx) =>
      tx
        .update(mallPrinters)
        .set({ state, lastSeen: new Date() })
        .where(and(eq(mallPrinters.tenantId, printer.tenantId), eq(mallPrinters.id, printer.printerId)))
        .returning({ id: mallPrinters.id }),
    );
    if (!changed.length) return;
    if (state === 'online') {
      const waiting = withTenant(db, printer.tenantId, (tx) =>
        tx
          .select({ id: mallPrintJobs.id })
          .from(mallPrintJobs)
          .where(
            and(
              eq(mallPrintJobs.tenantId, printer.tenantId),
              eq(mallPrintJobs.printerId, printer.printerId),
              eq(mallPrintJobs.status, 'PENDING'),
            ),
          ),
      );
      const ids = (await waiting).map((r) => r.id);
      if (ids.length) {
        await db
          .update(printOutbox)
          .set({ dueAt: new Date() })
          .where(and(eq(printOutbox.tenantRef, printer.tenantId), inArray(printOutbox.jobId, ids)));
        this.kick();
      }
    }
    await this.announce(printer.tenantId, { event: 'state', printerId: printer.printerId, state }).catch(() => {});
  }
}
