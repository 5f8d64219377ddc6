import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helper';

// headers do not depend on the database engine: PGlite only
describe('security headers', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    ctx = await buildTestApp('pglite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('sends a CSP allowing self, data: images and the broker WebSocket, and forbids framing', async () => {
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/system/user/captcha', headers: { host: 'atrium.test:8080' } });
    const csp = String(answer.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    const port = ctx.app.realtime.port;
    expect(port).toEqual(expect.any(Number));
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['img-src']).toContain('data:');
    expect(directives['connect-src']).toEqual(["'self'", `ws://atrium.test:${port}`, `wss://atrium.test:${port}`]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(answer.headers['permissions-policy']).toContain('camera=()');
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    // errors carry them too
    expect((await ctx.app.inject({ method: 'GET', url: '/api/nothing' })).headers['x-frame-options']).toBe('DENY');
  });

  it('keeps the document-only headers off the hashed scripts and styles, which are never documents', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/index-0000.js' });
    expect(asset.headers['content-security-policy']).toBeUndefined();
    expect(asset.headers['x-frame-options']).toBeUndefined();
    expect(asset.headers['permissions-policy']).toBeUndefined();
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
  });

  it('names MQTT_PUBLIC_URL as the broker origin, sends HSTS with HSTS=on, and hides the docs with API_DOCS=off', async () => {
    const other = await buildTestApp('pglite', { MQTT_PUBLIC_URL: 'wss://push.example.com/mqtt', HSTS: 'on', API_DOCS: 'off' });
    try {
      const answer = await other.app.inject({ method: 'GET', url: '/api/system/user/captcha' });
      expect(String(answer.headers['content-security-policy'])).toContain("connect-src 'self' wss://push.example.com;");
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect((await other.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
  });

  it('serves the docs to signed-in callers only with API_DOCS=signed-in, the looser CSP on the docs alone', async () => {
    const other = await buildTestApp('pglite', { API_DOCS: 'signed-in' });
    try {
      for (const url of ['/api/docs/', '/api/docs/json', '/api/docs/static/swagger-initializer.js']) {
        const anonymous = await other.app.inject({ method: 'GET', url });
        expect([url, anonymous.statusCode, anonymous.json().code]).toEqual([url, 401, 11000]);
        expect(anonymous.body).not.toContain('/api/system/user/info');
      }
      const login = await other.app.inject({
        method: 'POST',
        url: '/api/system/user/login',
        payload: { account: 'admin', password: 'Admin@123456' },
      });
      const authorization = `Bearer ${login.json().data.token}`;
      const document = await other.app.inject({ method: 'GET', url: '/api/docs/json', headers: { authorization } });
      expect(document.statusCode).toBe(200);
      expect(document.json().paths).toHaveProperty('/api/system/user/info');
      const page = await other.app.inject({ method: 'GET', url: '/api/docs/', headers: { authorization } });
      expect(page.statusCode).toBe(200);
      const appPolicy = String(
        (await other.app.inject({ method: 'GET', url: '/api/system/user/captcha' })).headers['content-security-policy'],
      );
      expect(String(page.headers['content-security-policy'])).not.toBe(appPolicy);
    } finally {
      await other.close();
    }
  });
});
