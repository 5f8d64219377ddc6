import { cpus } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MonitorFrame, MonitorSnapshot } from '@atrium/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type RawResult, type Tx, withTenant } from '../../db/client';
import { IDLE_MS } from '../auth/session.service';

/** How often frames go out while someone watches, and how long one call of the snapshot keeps them coming. */
export const MONITOR_INTERVAL_MS = 2000;
export const MONITOR_WATCH_SECONDS = 60;

const MB = 1024 * 1024;
type ServerFigures = NonNullable<MonitorFrame['server']>;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The live monitor: samples this process (CPU, memory, event-loop delay, request rate, database pool:
 * the platform's figures, shown to a super admin only) and, for each tenant someone watches, its
 * sessions, orders of the last minute and device presence.
 * A watcher is an account that called the snapshot in the last minute; frames reach its browser tabs
 * over MQTT every two seconds and stop by themselves when the page stops asking. With several
 * instances, each one reports itself to the watchers that called it.
 */
export class Monitor {
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });
  private readonly cores = Math.max(1, cpus().length);
  private requests = 0;
  private lastRequests = 0;
  private lastCpu = process.cpuUsage();
  private lastTime = process.hrtime.bigint();
  private server: Omit<ServerFigures, 'dbPool'> = {
    cpuPercent: 0,
    rssMb: 0,
    heapUsedMb: 0,
    eventLoopDelayMs: 0,
    requestsPerSecond: 0,
    uptimeSeconds: 0,
  };
  /** accountRef → until when (ms), in which tenant it watches, and whether it sees the platform's figures */
  private readonly watchers = new Map<number, { until: number; tenantId: number; platform: boolean }>();
  private timer: NodeJS.Timeout | undefined;
  private sending = false;

  constructor(private readonly app: FastifyInstance) {
    this.loopDelay.enable();
    // every request of the process, whatever route or plugin answers it
    app.server.on('request', () => {
      this.requests++;
    });
    this.sample();
  }

  /** Reads the process counters since the last sample. */
  private sample(): void {
    const now = process.hrtime.bigint();
    const elapsedUs = Number(now - this.lastTime) / 1000;
    const cpu = process.cpuUsage(this.lastCpu);
    const memory = process.memoryUsage();
    const requests = this.requests - this.lastRequests;
    this.server = {
      cpuPercent: elapsedUs > 0 ? round(((cpu.user + cpu.system) / elapsedUs / this.cores) * 100) : 0,
      rssMb: round(memory.rss / MB),
      heapUsedMb: round(memory.heapUsed / MB),
      eventLoopDelayMs: round(Number.isNaN(this.loopDelay.mean) ? 0 : this.loopDelay.mean / 1e6, 2),
      requestsPerSecond: elapsedUs > 0 ? round(requests / (elapsedUs / 1e6)) : 0,
      uptimeSeconds: Math.round(process.uptime()),
    };
    this.loopDelay.reset();
    this.lastCpu = process.cpuUsage();
    this.lastTime = now;
    this.lastRequests = this.requests;
  }

  private serverStatus(): ServerFigures {
    const pool = this.app.database.poolStats();
    return { ...this.server, dbPool: this.app.database.engine === 'postgres' ? pool : null };
  }

  private brokerClients(): number | null {
    if (!this.app.hasDecorator('realtime')) return null;
    return this.app.realtime.mode === 'embedded' ? this.app.realtime.connectedClients : null;
  }

  private async tenantStatus(tx: Tx, tenantId: number): Promise<MonitorFrame['tenant']> {
    // online as the session list counts it: not ended, not expired, not idle
    const now = this.app.clock.now();
    const result = (await tx.execute(sql`
      select (select count(*)::int from sessions
               where tenant_ref = ${tenantId} and ended_at is null
                 and last_seen_at > ${new Date(now.getTime() - IDLE_MS)} and expires_at > ${now}) as sessions,
             (select count(*)::int from erp_sales where create_time > now() - interval '1 minute') as orders,
             (select count(*)::int from mall_printers where state = 'online') as printers_online,
             (select count(*)::int from mall_printers) as printers,
             (select count(*)::int from release_clients where presence = 'online' and status = 'ACTIVE') as agents_online,
             (select count(*)::int from release_clients where status = 'ACTIVE') as agents`)) as RawResult<{
      sessions: number;
      orders: number;
      printers_online: number;
      printers: number;
      agents_online: number;
      agents: number;
    }>;
    const row = result.rows[0];
    return {
      onlineSessions: row?.sessions ?? 0,
      ordersLastMinute: row?.orders ?? 0,
      printersOnline: row?.printers_online ?? 0,
      printers: row?.printers ?? 0,
      agentsOnline: row?.agents_online ?? 0,
      agents: row?.agents ?? 0,
    };
  }

  /**
   * One frame: the tenant's own figures for everyone; the process's and the broker's (host-wide, every
   * tenant's load) only for the platform, a super admin.
   */
  private async frame(tx: Tx, tenantId: number, platform: boolean): Promise<MonitorFrame> {
    return {
      time: new Date().toISOString(),
      server: platform ? this.serverStatus() : null,
      tenant: await this.tenantStatus(tx, tenantId),
      brokerClients: platform ? this.brokerClients() : null,
    };
  }

  /** The snapshot a page opens with; the caller then receives frames for MONITOR_WATCH_SECONDS. */
  async snapshot(tx: Tx, tenantId: number, accountRef: number, platform: boolean): Promise<MonitorSnapshot> {
    this.watchers.set(accountRef, { until: Date.now() + MONITOR_WATCH_SECONDS * 1000, tenantId, platform });
    // after a quiet period nothing has sampled since the last watcher left (or since the start): the
    // figures would be that old, so sample now (the CPU and request rate then average the quiet period)
    if (!this.timer) this.sample();
    this.start();
    const result = (await tx.execute(sql`
      with m as (select generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()), interval '1 minute') as minute),
           v as (select date_trunc('minute', create_time) as minute, count(*)::int as n
                   from erp_sales where create_time >= date_trunc('minute', now()) - interval '59 minutes' group by 1)
      select to_char(m.minute at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:00"Z"') as minute, coalesce(v.n, 0)::int as orders
        from m left join v on v.minute = m.minute order by m.minute`)) as RawResult<{ minute: string; orders: number }>;
    return {
      frame: await this.frame(tx, tenantId, platform),
      ordersPerMinute: result.rows,
      watchSeconds: MONITOR_WATCH_SECONDS,
      intervalMs: MONITOR_INTERVAL_MS,
    };
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), MONITOR_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.loopDelay.disable();
  }

  /** One round: sample, then one frame per watched tenant to its watchers. Stops when nobody watches. */
  private async tick(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      this.sample();
      const now = Date.now();
      // one frame per tenant and view (the platform's or the tenant's own)
      const byView = new Map<string, { tenantId: number; platform: boolean; accountRefs: number[] }>();
      for (const [accountRef, watch] of this.watchers) {
        if (watch.until < now) {
          this.watchers.delete(accountRef);
          continue;
        }
        const key = `${watch.tenantId}:${watch.platform}`;
        const view = byView.get(key) ?? { tenantId: watch.tenantId, platform: watch.platform, accountRefs: [] };
        view.accountRefs.push(accountRef);
        byView.set(key, view);
      }
      if (byView.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
        return;
      }
      for (const { tenantId, platform, accountRefs } of byView.values()) {
        const frame = await withTenant(this.app.database.db, tenantId, (tx) => this.frame(tx, tenantId, platform));
        await this.app.realtime.publish({ accountRefs, kind: 'monitor', payload: { frame } });
      }
    } catch (error) {
      // a lost database or broker skips a frame; the next tick tries again
      this.app.log.warn({ err: error }, 'monitor frame not sent');
    } finally {
      this.sending = false;
    }
  }
}
