import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

/** ioredis connection options from a `redis://` or `rediss://` URL (the Redis clients of the backplane take options, not URLs). */
function redisOptionsFromUrl(url: string) {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: db ? Number(db) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    // fail fast instead of queueing forever while Redis is away; the broker reports "not live" meanwhile
    maxRetriesPerRequest: 3,
  };
}

export type RedisState = 'up' | 'down' | 'connecting';

/**
 * How request-path clients behave while Redis is away: a command fails at once instead of queueing
 * (no offline queue), one that was sent fails after `commandTimeout`, and the client keeps
 * reconnecting every 2 s at most. Callers fall back or answer 503; nothing waits for Redis.
 */
export const failFast: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
  commandTimeout: 2000,
};

const retryStrategy = (times: number) => Math.min(times * 250, 2000);

/**
 * Every Redis client of the server, created here so that an outage is logged once: one warning when
 * Redis goes away, one line when it is back with how long it was gone and how many connection
 * attempts failed meanwhile — not a line per client per attempt. Also what `/readyz` and `/metrics`
 * report.
 */
export class RedisWatch {
  private readonly clients = new Map<string, Redis>();
  private readonly down = new Set<string>();
  private downSince = 0;
  private failures = 0;
  private closing = false;

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A new client named for the logs; `options` override the fail-fast defaults. */
  client(name: string, options: RedisOptions = {}): Redis {
    const redis = new Redis({ ...redisOptionsFromUrl(this.url), ...failFast, retryStrategy, ...options });
    this.clients.set(name, redis);
    redis.on('error', (error: Error) => {
      this.failures += 1;
      this.lost(name, error);
    });
    redis.on('reconnecting', () => this.lost(name));
    redis.on('ready', () => this.back(name));
    // a client closed by its owner (a broker restart) no longer counts
    redis.on('end', () => {
      if (this.clients.get(name) !== redis) return;
      this.clients.delete(name);
      if (!this.closing) this.back(name);
    });
    return redis;
  }

  private lost(name: string, error?: Error) {
    if (this.closing || this.down.has(name)) return;
    if (this.down.size === 0) {
      this.downSince = Date.now();
      this.log.warn({ redis: name, err: error }, 'Redis is unreachable; falling back until it returns (see README, "When Redis is away")');
    }
    this.down.add(name);
  }

  private back(name: string) {
    if (!this.down.delete(name) || this.down.size > 0) return;
    this.log.info(
      { downMs: Date.now() - this.downSince, failedAttempts: this.failures },
      `Redis is reachable again after ${Math.round((Date.now() - this.downSince) / 100) / 10} s`,
    );
    this.failures = 0;
  }

  /** up: every client is connected; down: one lost its connection; connecting: not connected yet. */
  state(): RedisState {
    if (this.down.size > 0) return 'down';
    for (const redis of this.clients.values()) if (redis.status !== 'ready') return 'connecting';
    return 'up';
  }

  /** Waits until every client is connected, at most `ms` (start-up goes on without Redis after that). */
  async ready(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.state() !== 'up' && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    return this.state() === 'up';
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled(
      [...this.clients.values()].map((redis) =>
        redis.status === 'ready' ? redis.quit().catch(() => redis.disconnect()) : Promise.resolve(redis.disconnect()),
      ),
    );
  }
}
