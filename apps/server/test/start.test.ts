// `npm start` as a supervisor runs it: a signal to npm's own PID must reach the server and stop it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testPort } from './helper';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string) {
  // npm start may install and build first
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start exited: ${output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`npm start did not become ready: ${output()}`);
}

describe('npm start', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stops the server when npm itself gets %s', { timeout: 720_000 }, async (signal) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atrium-start-'));
    dirs.push(dataDir);
    const port = testPort();
    const child = spawn(npm, ['start'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        MQTT_WS_PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SEED: 'none',
        ADMIN_ACCOUNT: 'root',
        ADMIN_PASSWORD: 'Start#Test-2026!',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitUntilReady(`http://127.0.0.1:${port}/readyz`, child, () => output);
      expect(await listening(port)).toBe(true);
      child.kill(signal);
      await exited;
      // npm exits only after the server it started did: nothing may be left on the port
      expect(await listening(port)).toBe(false);
      expect(output).not.toMatch(/without a clean shutdown/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
