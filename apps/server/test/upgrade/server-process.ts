import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The checkout these tests run from. */
export const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

// answers are read field by field in assertions, as each release shapes them
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Answer = { status: number; body: { code: number; message: string; data: any } };
export type Data = Answer['body']['data'];

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One release's server, started as its operator would start it. */
export class ServerProcess {
  private child?: ChildProcess;
  private output: string[] = [];
  readonly answers: { method: string; url: string; status: number }[] = [];
  private constructor(
    readonly name: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  static async start(name: string, dir: string, env: Record<string, string>): Promise<ServerProcess> {
    const release = new ServerProcess(name, dir, await freePort());
    const server = path.join(dir, 'apps/server');
    // releases since 0.2.0 run their compiled bundle; 0.1.0 ran its sources with tsx
    const args = existsSync(path.join(server, 'dist/main.js')) ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
    const child = spawn(process.execPath, args, {
      cwd: server,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(release.port),
        MQTT_WS_PORT: String(await freePort()),
        CAPTCHA: 'off',
        LOGIN_RATE_LIMIT: '100000',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    release.child = child;
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk) => release.output.push(String(chunk)));
    // up when it answers; a process that exits first will never be
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it answered:\n${release.log()}`))),
    );
    const up = (async () => {
      for (;;) {
        try {
          const response = await fetch(`http://127.0.0.1:${release.port}/healthz`);
          if (response.ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    await Promise.race([up, exited]);
    return release;
  }

  log(): string {
    return this.output.join('').slice(-4000);
  }

  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> {
    const response = await fetch(`http://127.0.0.1:${this.port}/api${url}`, {
      method,
      headers: {
        'accept-language': 'en-US',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    this.answers.push({ method, url, status: response.status });
    const text = await response.text();
    let body: Answer['body'];
    try {
      body = JSON.parse(text);
    } catch {
      body = { code: response.status, message: text.slice(0, 200), data: null };
    }
    return { status: response.status, body };
  }

  async signIn(account: string, password: string): Promise<Answer> {
    return this.call('POST', '/system/user/login', { body: { account, password } });
  }

  async readyz(): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`http://127.0.0.1:${this.port}/readyz`);
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  /** Every answer of 500 or more this release gave, for the assertion that names them. */
  failures(): string[] {
    return this.answers.filter((a) => a.status >= 500).map((a) => `${this.name}: ${a.method} ${a.url} → ${a.status}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await gone;
    clearTimeout(timer);
  }
}

/** Whether a PostgreSQL server answers at `url`. */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
