import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { committedMigrationCount, openDatabase } from '../src/db/client';
import { snapshotWebDist } from '../src/plugins/external/web';
import { createTestDatabase, oneEngine, type TestDatabase, testConfig } from './helper';

describe.each(oneEngine)('HTTP contract on %s', (engine) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let testDatabase: TestDatabase;
  let webDist: string;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(os.tmpdir(), 'atrium-web-'));
    await writeFile(
      path.join(webDist, 'index.html'),
      '<!doctype html><script src="/assets/index-old.js"></script><div id="root">atrium-app</div>',
    );
    await writeFile(path.join(webDist, 'robots.txt'), 'User-agent: *');
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'assets', 'index-old.js'), 'console.log("old build")');
    testDatabase = await createTestDatabase(engine);
    const database = await openDatabase(testDatabase.options);
    app = await buildApp({ config: testConfig({ WEB_DIST: webDist, BODY_LIMIT: '2048' }), database, logger: false });
    app.get('/api/test/boom', { config: { public: true } }, async () => {
      throw new Error('secret internal detail');
    });
    app.post('/api/test/echo', { config: { public: true } }, async (request) => ({ code: 200, message: 'ok', data: request.body }));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDatabase?.drop();
    await rm(webDist, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz', async () => {
    const health = await app.inject('/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ code: 200, message: 'ok', data: { status: 'up' } });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data.status).toBe('ready');
    // each configured dependency is named; without REDIS_URL there is no Redis to report
    expect(ready.json().data.checks).toEqual({
      database: { status: 'up' },
      schema: { status: 'current', applied: committedMigrationCount(), known: committedMigrationCount() },
      broker: { status: 'up', mode: 'embedded' },
    });
  });

  it('reports not ready when the database is gone', async () => {
    const other = await createTestDatabase(engine);
    const database = await openDatabase(other.options);
    const lonely = await buildApp({ config: testConfig(), database, logger: false });
    await database.close();
    const ready = await lonely.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().code).toBe(503);
    await lonely.close();
    await other.drop();
  });

  it('answers unknown API paths with a 404 envelope in the asked language', async () => {
    const zh = await app.inject('/api/no/such/thing');
    expect(zh.statusCode).toBe(404);
    expect(zh.json()).toEqual({ code: 40401, message: '接口不存在', data: null });
    const en = await app.inject({ url: '/api/no/such/thing', headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.json().message).toBe('No such API endpoint');
  });

  it('answers malformed JSON with 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 40002, data: null });
  });

  it('answers a body that is not JSON with 415, whatever the type; an empty body of any type is no body', async () => {
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await app.inject({ method: 'POST', url: '/api/test/echo', headers: { 'content-type': type }, payload: '{"a":1}' });
      expect(response.statusCode, type).toBe(415);
      expect(response.json(), type).toMatchObject({ code: 415, data: null });
      const empty = await app.inject({ method: 'POST', url: '/api/test/echo', headers: { 'content-type': type }, payload: '' });
      // the echo answers the body it got: none
      expect([empty.statusCode, empty.json().code, empty.json().data], type).toEqual([200, 200, undefined]);
    }
  });

  it('answers an oversized body with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(5000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe(413);
  });

  it('answers unexpected errors with 500 and a request id, never the detail', async () => {
    const response = await app.inject({ url: '/api/test/boom', headers: { 'x-request-id': 'req-abc' } });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ code: 500, data: { requestId: 'req-abc' } });
    expect(response.body).not.toContain('secret internal detail');
    expect(response.body).not.toContain('at ');
    expect(response.headers['x-request-id']).toBe('req-abc');
  });

  it('serves the web app with an SPA fallback, and its files', async () => {
    for (const url of ['/', '/login', '/system/user/detail/7?x=1', '/no/such/page']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('atrium-app');
    }
    const file = await app.inject('/robots.txt');
    expect(file.body).toBe('User-agent: *');
    const missingAsset = await app.inject('/assets/missing.js');
    expect(missingAsset.statusCode).toBe(404);
    // a path out of the folder is a page like any other, never a file from elsewhere
    for (const url of ['/assets/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/%2e%2e%2f%2e%2e%2fetc/passwd']) {
      expect((await app.inject(url)).body, url).not.toContain('root:');
    }
  });

  it('keeps serving the web build it started with when a new one is written under it', async () => {
    // an upgrade in place: the build empties the folder, then writes a new index.html and new hashed assets
    await rm(path.join(webDist, 'assets'), { recursive: true });
    await rm(path.join(webDist, 'index.html'));
    expect((await app.inject('/')).statusCode).toBe(200);
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'assets', 'index-new.js'), 'console.log("new build")');
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><script src="/assets/index-new.js"></script>atrium-app');
    for (const url of ['/', '/system/user']) {
      const page = await app.inject(url);
      expect([page.statusCode, page.body], url).toEqual([200, expect.stringContaining('/assets/index-old.js')]);
    }
    const old = await app.inject('/assets/index-old.js');
    expect([old.statusCode, old.body, old.headers['cache-control']]).toEqual([
      200,
      'console.log("old build")',
      'public, max-age=31536000, immutable',
    ]);
    expect((await app.inject('/assets/index-new.js')).statusCode).toBe(404);
  });

  it('removes web snapshots left by processes that are gone, and keeps those of running ones', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const stale = path.join(os.tmpdir(), `atrium-web-snapshot-${gone}-test`);
    const live = path.join(os.tmpdir(), `atrium-web-snapshot-${process.ppid}-test`);
    await mkdir(stale, { recursive: true });
    await mkdir(live, { recursive: true });
    const snapshot = await snapshotWebDist(webDist);
    try {
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(path.join(snapshot, 'index.html'))).toBe(true);
    } finally {
      await rm(snapshot, { recursive: true, force: true });
      await rm(live, { recursive: true, force: true });
    }
  });

  it("names its release, the version in package.json, on every answer but the web build's hashed files", async () => {
    const { version } = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const url of ['/api/system/meta', '/api/no/such/thing', '/api/user/info', '/healthz', '/readyz', '/', '/system/user']) {
      const response = await app.inject(url);
      expect(response.headers['x-atrium-release'], url).toBe(version);
    }
    // the build's hashed files are one release's anyway; the header would only add bytes to each
    expect((await app.inject('/assets/index-old.js')).headers['x-atrium-release']).toBeUndefined();
    const refused = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    expect([refused.statusCode, refused.headers['x-atrium-release']]).toEqual([400, version]);
  });

  it('publishes the OpenAPI document and its UI', async () => {
    const json = await app.inject('/api/docs/json');
    expect(json.statusCode).toBe(200);
    const document = json.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/api/system/meta']).toBeDefined();
    expect(document.info.description).toContain('11000');
    const ui = await app.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('tells the sign-in screen whether captcha and registration are on', async () => {
    const response = await app.inject('/api/system/meta');
    expect(response.json()).toMatchObject({ code: 200, data: { product: 'Atrium', engine, captcha: false } });
  });

  it('keeps server paths and non-page requests out of the web app: /metrics is a 404 envelope when metrics are off', async () => {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'text/html' }]) {
      const metrics = await app.inject({ url: '/metrics', headers });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.json()).toMatchObject({ code: 40401 });
    }
    // a scraper or an API client asking for an unknown path gets JSON, a browser gets the app
    const scraped = await app.inject({ url: '/some/page', headers: { accept: 'application/openmetrics-text; version=1.0.0' } });
    expect([scraped.statusCode, scraped.json().code]).toEqual([404, 40401]);
    const page = await app.inject({ url: '/some/page', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('atrium-app');
  });
});
