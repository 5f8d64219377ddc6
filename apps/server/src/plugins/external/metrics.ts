import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '../../errors';
import { sendEnvelope } from './errors';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `GET /metrics` in Prometheus text format, only when METRICS_TOKEN is set and only for callers that
 * send it (`Authorization: Bearer <token>`): requests by route and status, latency by route, database
 * connections in use and waiting, broker clients, Redis state, and Node's own (event-loop delay, heap,
 * GC). Routes are labelled by their pattern (`/api/system/user/info/:id`), never by the raw URL.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const token = app.config.METRICS_TOKEN;
    if (!token) return;
    const registry = new Registry();
    const registers = [registry];
    collectDefaultMetrics({ register: registry, prefix: 'atrium_' });
    const requests = new Counter({
      name: 'atrium_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    });
    const latency = new Histogram({
      name: 'atrium_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route pattern',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers,
    });
    new Gauge({
      name: 'atrium_db_pool_connections',
      help: 'Database connections of this instance: open (total) and in use',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = app.database.poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'in_use' }, stats.total - stats.idle);
      },
    });
    new Gauge({
      name: 'atrium_db_pool_waiting',
      help: 'Requests waiting for a database connection',
      registers,
      collect() {
        this.set(app.database.poolStats().waiting);
      },
    });
    new Gauge({
      name: 'atrium_broker_clients',
      help: 'Browsers connected to the embedded MQTT broker of this instance',
      registers,
      collect() {
        this.set(app.hasDecorator('realtime') ? app.realtime.connectedClients : 0);
      },
    });
    new Gauge({
      name: 'atrium_broker_live',
      help: '1 when a publish now would reach connected browsers (embedded or external broker)',
      registers,
      collect() {
        this.set(app.hasDecorator('realtime') && app.realtime.live ? 1 : 0);
      },
    });
    if (app.redis) {
      const watch = app.redis;
      new Gauge({
        name: 'atrium_redis_up',
        help: '1 when every Redis client is connected, 0 while Redis is away or still connecting',
        registers,
        collect() {
          this.set(watch.state() === 'up' ? 1 : 0);
        },
      });
    }

    app.addHook('onResponse', async (request, reply) => {
      // unmatched paths share one label: a scanner must not grow the series without bound
      const route = request.routeOptions.url ?? 'unmatched';
      requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });

    app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      const given = request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
      if (!sameToken(given, token)) return sendEnvelope(reply, request, new AppError('tokenInvalid'));
      const text = await registry.metrics();
      return reply.type(registry.contentType).header('cache-control', 'no-store').send(text);
    });
  },
  { name: 'metrics', dependencies: ['errors', 'database', 'redis'] },
);
