import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { testPort } from './helper';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Run = { child: ChildProcess; output: () => string; exit: Promise<number | null> };

function run(env: Record<string, string>): Run {
  const child = spawn(process.execPath, [inject('serverBuild')], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', CAPTCHA: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

/** The lines the server itself wrote about why it stopped (`atrium: …`). */
const atriumLines = (run: Run) =>
  run
    .output()
    .split('\n')
    .filter((l) => l.startsWith('atrium:'));

async function waitFor(url: string, run: Run, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (run.child.exitCode !== null) throw new Error(`server exited: ${run.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${url}: ${run.output()}`);
}

const port = () => String(testPort());

describe('the server process', () => {
  const dirs: string[] = [];
  // a data directory holding a copy of the run's migrated database (not yet seeded): these tests are
  // about what the process says and does, and a fresh one would spend seconds on initdb and migrations
  // each time (the first start in an empty directory is the browser tests' and `npm start`'s)
  const templateDataDir = async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atrium-life-'));
    dirs.push(dataDir);
    await cp(inject('pgliteTemplate'), path.join(dataDir, 'pglite'), { recursive: true });
    return dataDir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, 'DATABASE_URL'],
    [{ SEED: 'everything' }, 'SEED'],
  ])('stops on bad configuration %o with one clear line naming %s', async (env, name) => {
    const started = run(env as Record<string, string>);
    expect(await started.exit).toBe(1);
    const lines = started.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^atrium: /);
    expect(lines[0]).toContain(name);
  });

  it('serves, stops cleanly on SIGINT, refuses a second process on the same DATA_DIR, and keeps its data', async () => {
    const dataDir = await templateDataDir();
    const first = run({ PORT: port(), DATA_DIR: dataDir });
    const url = () => {
      const match = first.output().match(/running at (http:\/\/[^\s]+)/);
      return match?.[1];
    };
    const until = Date.now() + 60_000;
    while (!url() && Date.now() < until && first.child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
    expect(url(), first.output()).toBeDefined();
    await waitFor(`${url()}/readyz`, first);
    expect(existsSync(path.join(dataDir, 'atrium.lock'))).toBe(true);

    const second = run({ PORT: port(), DATA_DIR: dataDir });
    expect(await second.exit).toBe(1);
    expect(second.output()).toContain('is in use by another Atrium process');

    first.child.kill('SIGINT');
    expect(await first.exit).toBe(0);
    expect(existsSync(path.join(dataDir, 'atrium.lock'))).toBe(false);

    const database = await openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    try {
      const rows = await database.query<{ code: string }>('select code from tenants order by code');
      expect(rows.map((r) => r.code)).toEqual(['acme', 'hq']);
    } finally {
      await database.close();
    }

    // (no drain on its SIGTERM: the drain has its own test below)
    const third = run({ PORT: port(), DATA_DIR: dataDir, SEED: 'none', SHUTDOWN_DRAIN_MS: '0' });
    const until3 = Date.now() + 60_000;
    while (!/running at/.test(third.output()) && Date.now() < until3 && third.child.exitCode === null)
      await new Promise((r) => setTimeout(r, 200));
    expect(third.output()).toContain('running at');
    third.child.kill('SIGTERM');
    expect(await third.exit).toBe(0);
  }, 240_000);

  const runOn = async (env: Record<string, string>) => run({ DATA_DIR: await templateDataDir(), MQTT_WS_PORT: '0', ...env });

  it('says in one line that the port is taken by another process', async () => {
    const holder = createServer();
    const taken = port();
    await new Promise<void>((resolve) => holder.listen(Number(taken), '127.0.0.1', resolve));
    try {
      const started = await runOn({ PORT: taken });
      expect(await started.exit).toBe(1);
      expect(atriumLines(started)).toEqual([`atrium: PORT ${taken} is already in use on 127.0.0.1: another process is listening there`]);
    } finally {
      holder.close();
    }
  }, 240_000);

  it('says in one line that HOST is not an address of this machine', async () => {
    // 192.0.2.1 is reserved for documentation (TEST-NET-1): never a local address
    const started = await runOn({ PORT: port(), HOST: '192.0.2.1' });
    expect(await started.exit).toBe(1);
    // (the embedded broker logs its own failure to listen there first)
    expect(atriumLines(started)).toEqual(['atrium: HOST 192.0.2.1 is not an address of this machine']);
  }, 240_000);

  it('drains on SIGTERM: /readyz answers 503 while requests are still served, then every request in flight is answered and it exits 0', async () => {
    const started = await runOn({ PORT: port(), SHUTDOWN_DRAIN_MS: '15000', LOGIN_RATE_LIMIT: '100000' });
    const until = Date.now() + 180_000;
    while (!/running at/.test(started.output()) && Date.now() < until && started.child.exitCode === null)
      await new Promise((r) => setTimeout(r, 200));
    const base = started.output().match(/running at (http:\/\/[^\s]+)/)?.[1] as string;
    await waitFor(`${base}/readyz`, started, 180_000);

    // load: sign-ins (real work: password hashing, database writes) until the listener refuses
    const answered: number[] = [];
    const failures: string[] = [];
    // like a load balancer: requests keep coming until /readyz has said 503 for a while, then stop
    let routing = true;
    const signInLoop = async () => {
      while (routing) {
        try {
          const response = await fetch(`${base}/api/system/user/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ account: 'admin', password: 'Admin@123456' }),
          });
          await response.arrayBuffer();
          answered.push(response.status);
        } catch (error) {
          failures.push(String((error as { cause?: { code?: string } }).cause?.code ?? error));
        }
      }
    };
    const load = [signInLoop(), signInLoop(), signInLoop(), signInLoop()];
    while (answered.length < 8) await new Promise((r) => setTimeout(r, 50));

    started.child.kill('SIGTERM');
    let readiness = 200;
    while (readiness !== 503) {
      const response = await fetch(`${base}/readyz`);
      readiness = response.status;
      if (readiness === 503) expect(((await response.json()) as { data: { status: string } }).data.status).toBe('draining');
      else await response.arrayBuffer();
    }
    const atDrain = answered.length;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    // kept-alive connections are let go, so clients open their next one elsewhere
    expect(health.headers.get('connection')).toBe('close');
    while (answered.length < atDrain + 4 && failures.length === 0) await new Promise((r) => setTimeout(r, 50));
    routing = false;
    await Promise.all(load);
    expect(await started.exit).toBe(0);
    // sign-ins went on succeeding while /readyz said 503, and every request sent was answered
    expect(failures).toEqual([]);
    expect(answered.length).toBeGreaterThanOrEqual(atDrain + 4);
    expect(new Set(answered)).toEqual(new Set([200]));
  }, 240_000);
});
