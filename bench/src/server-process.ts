import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type ServerProcess = { url: string; child: ChildProcess; stop(): Promise<void>; rssKb(): number };

/** The server to run: the compiled build when there is one (`npm run build`), else the TypeScript source. */
export function serverEntry(): string {
  return existsSync(path.join(repoRoot, 'apps/server/dist/main.js')) ? 'apps/server/dist/main.js' : 'apps/server/src/main.ts';
}

/**
 * Starts an entry of this repo in its own process (plain node for JavaScript, through tsx for
 * TypeScript) and waits until `readyPath` answers 200.
 */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  port: number,
  args: string[] = [],
  readyPath = '/readyz',
): Promise<ServerProcess> {
  // a server left on the port would answer for this one
  const url = `http://127.0.0.1:${port}`;
  if (
    await fetch(url).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is already in use`);
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // BENCH_NODE_ARGS: node flags for the server under test, e.g. `--cpu-prof --cpu-prof-dir=prof`
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...loader, path.join(repoRoot, entry), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // a bench that fails half-way leaves no server behind on its ports
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const until = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited: ${stderr}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not become ready: ${stderr}`);
    }
    try {
      const response = await fetch(`${url}${readyPath}`);
      if (response.ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    child,
    rssKb() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
      } catch {
        return 0;
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}
