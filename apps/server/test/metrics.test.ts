import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helper';

const TOKEN = 'metrics-token-0123456789';

describe('GET /metrics with METRICS_TOKEN', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    ctx = await buildTestApp('pglite', { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('refuses callers without the token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`]) {
      const response = await ctx.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe(11000);
    }
  });

  it('answers Prometheus text: requests and latency by route pattern, pool, broker, event loop', async () => {
    await ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account: 'admin', password: 'wrong-password' } });
    await ctx.app.inject({ url: '/api/system/post/12345' });
    const response = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toMatch(/atrium_http_requests_total\{method="POST",route="\/api\/system\/user\/login",status="\d+"\} 1/);
    // the pattern, not the URL with its id
    expect(text).toContain('route="/api/system/post/:id"');
    // (in no label: a sample's value may hold those digits by chance)
    expect(text).not.toMatch(/="[^"]*12345[^"]*"/);
    expect(text).toContain('atrium_http_request_duration_seconds_bucket{le="0.005",method="POST",route="/api/system/user/login"}');
    expect(text).toMatch(/atrium_db_pool_connections\{state="in_use"\} \d+/);
    expect(text).toMatch(/atrium_db_pool_waiting \d+/);
    expect(text).toMatch(/atrium_broker_clients \d+/);
    expect(text).toMatch(/atrium_nodejs_eventloop_lag_p99_seconds \d/);
    // no Redis configured: no Redis series
    expect(text).not.toContain('atrium_redis_up');
  });
});
