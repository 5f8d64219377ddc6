// Several instances started at once on an empty PostgreSQL database: all must come up, with the
// migrations applied once and the first super admin created once (docs/operations.md, upgrading).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { committedMigrationCount } from '../src/db/client';
import { createTestDatabase, engines, type TestDatabase, testPort } from './helper';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [inject('serverBuild')], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', CAPTCHA: 'off', MQTT_WS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return { child, output: () => output };
}

async function ready(url: string, run: { child: ChildProcess; output: () => string }) {
  const until = Date.now() + 170_000;
  while (Date.now() < until) {
    if (run.child.exitCode !== null) throw new Error(`an instance exited: ${run.output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`an instance did not become ready: ${run.output()}`);
}

describe.skipIf(!engines.includes('postgres'))('instances starting together on an empty PostgreSQL database', () => {
  let testDatabase: TestDatabase;
  const runs: ReturnType<typeof start>[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(
      runs.map(
        (run) =>
          new Promise<void>((resolve) => {
            if (run.child.exitCode !== null) return resolve();
            run.child.once('exit', () => resolve());
            run.child.kill('SIGTERM');
          }),
      ),
    );
    await testDatabase?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('all come up, migrating and seeding once', async () => {
    testDatabase = await createTestDatabase('postgres');
    const ports = [0, 1].map(() => testPort());
    for (const port of ports) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-lock-'));
      dirs.push(dir);
      runs.push(
        start({
          PORT: String(port),
          DATA_DIR: dir,
          DATABASE_URL: testDatabase.ownerUrl as string,
          ADMIN_ACCOUNT: 'root',
          ADMIN_PASSWORD: 'Lock#Test-2026!',
        }),
      );
    }
    await Promise.all(ports.map((port, i) => ready(`http://127.0.0.1:${port}/readyz`, runs[i] as ReturnType<typeof start>)));

    const client = new pg.Client({ connectionString: testDatabase.ownerUrl });
    await client.connect();
    try {
      const migrations = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(migrations.rows[0].n).toBe(committedMigrationCount());
      const admins = await client.query('select count(*)::int as n from accounts where super_admin');
      expect(admins.rows[0].n).toBe(1);
      // SEED defaults to none with DATABASE_URL: no demo tenants
      const tenants = await client.query(`select count(*)::int as n from tenants where code in ('hq', 'acme')`);
      expect(tenants.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});
