import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Run = { child: ChildProcess; output: () => string; exit: Promise<number | null> };

function run(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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

const port = () => String(20000 + Math.floor(Math.random() * 20000));

describe('the server process', () => {
  const dirs: string[] = [];
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
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atrium-life-'));
    dirs.push(dataDir);
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

    const third = run({ PORT: port(), DATA_DIR: dataDir, SEED: 'none' });
    const until3 = Date.now() + 60_000;
    while (!/running at/.test(third.output()) && Date.now() < until3 && third.child.exitCode === null)
      await new Promise((r) => setTimeout(r, 200));
    expect(third.output()).toContain('running at');
    third.child.kill('SIGTERM');
    expect(await third.exit).toBe(0);
  }, 240_000);
});
