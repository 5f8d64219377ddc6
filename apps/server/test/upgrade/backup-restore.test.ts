import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Data, freePort, repository, ServerProcess } from './server-process';

// The backup and restore section of docs/operations.md, run as written: its shell blocks (marked
// `<!-- ops:name -->`) against the documented roles — atrium_owner owns and migrates, atrium_app
// serves — on clusters this test makes for itself with initdb, password authentication on. The dump is
// restored into the same cluster and into a new one; a server of this release starts on each and finds
// what was there when the backup was taken. The embedded database's copy is restored the same way.

const operations = readFileSync(path.join(repository, 'docs/operations.md'), 'utf8');

/** The shell block that follows `<!-- ops:name -->` in docs/operations.md. */
function block(name: string): string {
  const found = new RegExp(`<!-- ops:${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(operations);
  if (!found) throw new Error(`docs/operations.md has no block marked <!-- ops:${name} -->`);
  return found[1] as string;
}

/**
 * Runs a documented block with bash in `cwd`: text replaced where the document names a host's own
 * values (its port, its paths, the example file names), and its `systemctl` lines done by `service`.
 */
async function runBlock(
  name: string,
  options: { cwd: string; env?: Record<string, string>; replace?: [string, string][]; service?: (verb: string) => Promise<void> },
): Promise<void> {
  let text = block(name);
  for (const [from, to] of options.replace ?? []) text = text.replaceAll(from, to);
  // a systemctl line is the test's own start or stop; the lines between run as one script
  const parts: string[][] = [[]];
  for (const line of text.split('\n')) {
    if (/^systemctl (start|stop) atrium$/.test(line.trim())) parts.push([line.trim()], []);
    else parts.at(-1)?.push(line);
  }
  for (const part of parts) {
    const script = part.join('\n').trim();
    if (!script) continue;
    const service = /^systemctl (start|stop) atrium$/.exec(script);
    if (service) {
      if (!options.service) throw new Error(`block ${name} uses systemctl, the test gave no service`);
      await options.service(service[1] as string);
      continue;
    }
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], {
        cwd: options.cwd,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...options.env },
      });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      child.on('close', (code) => resolve({ code, output }));
    });
    if (result.code !== 0) throw new Error(`block ${name} failed (${result.code}):\n${script}\n${result.output}`);
  }
}

/** PostgreSQL's server programs (initdb, pg_ctl), from the installed major version. */
function serverBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : undefined;
}

const bin = serverBin();
const asRoot = process.getuid?.() === 0;
const clientTools = ['psql', 'pg_dump', 'pg_restore'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
if (process.env.CI && (!bin || !clientTools)) {
  throw new Error("PostgreSQL's programs (initdb, pg_ctl, psql, pg_dump, pg_restore) are needed: install Debian's postgresql");
}

const SUPERUSER_PASSWORD = 'super-secret';

/** A PostgreSQL cluster of the test's own: initdb, password authentication over TCP, a free port. */
async function startCluster(name: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `atrium-cluster-${name}-`));
  const port = await freePort();
  // initdb refuses to run as root: the cluster is the postgres user's, as a packaged one is
  const as = (args: string[]) => (asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args);
  const exec = (args: string[]) => {
    const [command, ...rest] = as(args);
    const result = spawnSync(command as string, rest, { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  };
  await writeFile(path.join(dir, 'pw'), SUPERUSER_PASSWORD);
  if (asRoot) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
  await chmod(dir, 0o700);
  const data = path.join(dir, 'data');
  exec([
    path.join(bin as string, 'initdb'),
    '-D',
    data,
    '-U',
    'postgres',
    '--pwfile',
    path.join(dir, 'pw'),
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  exec([
    path.join(bin as string, 'pg_ctl'),
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-t',
    '120',
    '-o',
    `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`,
    'start',
  ]);
  return {
    port,
    superuserUrl: `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${port}/postgres`,
    url: (role: 'atrium_owner' | 'atrium_app', database: string) =>
      `postgres://${role}:${role === 'atrium_owner' ? 'owner-secret' : 'app-secret'}@127.0.0.1:${port}/${database}`,
    async stop() {
      try {
        exec([path.join(bin as string, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
type Cluster = Awaited<ReturnType<typeof startCluster>>;

/** This release's server on `database` of `cluster`, as the documented roles. */
// as in production: no demo data, the first super admin from the environment
const ADMIN = { ADMIN_ACCOUNT: 'root', ADMIN_PASSWORD: 'Root#backup-pass1' };

function serverOn(name: string, cluster: Cluster, database: string, dataDir: string) {
  return ServerProcess.start(name, repository, {
    DATABASE_URL: cluster.url('atrium_owner', database),
    DATABASE_APP_URL: cluster.url('atrium_app', database),
    DATA_DIR: dataDir,
    SEED: 'none',
    ...ADMIN,
  });
}

async function userByAccount(server: ServerProcess, token: string, accountId: string): Promise<Data | undefined> {
  const list = await server.call('GET', `/system/user/user?pageNum=1&pageSize=10&accountId=${accountId}`, { token });
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return (list.body.data.list as Data[]).find((row) => row.accountId === accountId);
}

/** What a restored server must show: the account made before the backup, signing in, as it was. */
async function expectBackedUpData(server: ServerProcess, made: Data) {
  const ready = await server.readyz();
  expect(ready.status, JSON.stringify(ready.body)).toBe(200);
  const admin = await server.signIn(ADMIN.ADMIN_ACCOUNT, ADMIN.ADMIN_PASSWORD);
  expect(admin.status, JSON.stringify(admin.body)).toBe(200);
  const token = admin.body.data.token as string;
  const found = await userByAccount(server, token, 'backup_one');
  expect(found && { id: found.id, name: found.name, email: found.email }).toEqual({ id: made.id, name: made.name, email: made.email });
  expect((await server.signIn('backup_one', 'Backup#Pass1')).status).toBe(200);
  // what was made after the backup is not there
  expect(await userByAccount(server, token, 'backup_two')).toBeUndefined();
  expect(server.failures()).toEqual([]);
}

async function makeData(server: ServerProcess) {
  const admin = await server.signIn(ADMIN.ADMIN_ACCOUNT, ADMIN.ADMIN_PASSWORD);
  expect(admin.status, JSON.stringify(admin.body)).toBe(200);
  const token = admin.body.data.token as string;
  const made = await server.call('POST', '/system/user/info', {
    token,
    body: { accountId: 'backup_one', name: 'Backup One', password: 'Backup#Pass1', email: 'backup.one@example.com' },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return { token, made: made.body.data as Data };
}

const afterBackup = (server: ServerProcess, token: string) =>
  server.call('POST', '/system/user/info', { token, body: { accountId: 'backup_two', name: 'Backup Two', password: 'Backup#Pass1' } });

describe.skipIf(!bin || !clientTools)('backup and restore on PostgreSQL, as docs/operations.md writes them', () => {
  let work: string;
  let source: Cluster;
  let fresh: Cluster | undefined;
  const servers: ServerProcess[] = [];
  let made: Data;
  let dump: string;

  beforeAll(async () => {
    if (!existsSync(path.join(repository, 'apps/server/dist/main.js'))) throw new Error('build the server first (npm run build)');
    work = await mkdtemp(path.join(os.tmpdir(), 'atrium-backup-'));
    source = await startCluster('source');
    const superuser = { SUPERUSER_URL: source.superuserUrl };
    await runBlock('roles', { cwd: work, env: superuser });
    await runBlock('database', { cwd: work, env: superuser });
    const server = await serverOn('source', source, 'atrium', path.join(work, 'source'));
    servers.push(server);
    const data = await makeData(server);
    made = data.made;
    // the backup, taken while the server runs, as the owner
    await runBlock('backup', { cwd: work, env: { DATABASE_URL: source.url('atrium_owner', 'atrium') } });
    const dumps = readdirSync(work).filter((file) => file.endsWith('.dump'));
    expect(dumps).toHaveLength(1);
    dump = dumps[0] as string;
    expect((await afterBackup(server, data.token)).status).toBe(200);
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await source?.stop();
    await fresh?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('restores into a new database of the same cluster, and a server starts on it as the documented roles', async () => {
    await runBlock('restore', {
      cwd: work,
      env: { SUPERUSER_URL: source.superuserUrl },
      replace: [
        ['127.0.0.1:5432', `127.0.0.1:${source.port}`],
        ['atrium-2026-01-31.dump', dump],
      ],
    });
    const server = await serverOn('restored, same cluster', source, 'atrium_restored', path.join(work, 'same'));
    servers.push(server);
    await expectBackedUpData(server, made);
  });

  it('restores on a new cluster once the roles are made, with no error from pg_restore', async () => {
    fresh = await startCluster('fresh');
    const superuser = { SUPERUSER_URL: fresh.superuserUrl };
    await runBlock('roles', { cwd: work, env: superuser });
    await runBlock('restore', {
      cwd: work,
      env: superuser,
      replace: [
        ['127.0.0.1:5432', `127.0.0.1:${fresh.port}`],
        ['atrium-2026-01-31.dump', dump],
      ],
    });
    const server = await serverOn('restored, new cluster', fresh, 'atrium_restored', path.join(work, 'fresh'));
    servers.push(server);
    await expectBackedUpData(server, made);
  });
});

describe('backup and restore of the embedded database, as docs/operations.md writes them', () => {
  let parent: string;
  let server: ServerProcess | undefined;
  const start = async () => {
    server = await ServerProcess.start('embedded', repository, { DATA_DIR: path.join(parent, 'atrium'), SEED: 'none', ...ADMIN });
  };
  const service = async (verb: string) => {
    if (verb === 'stop') await server?.stop();
    else await start();
  };

  beforeAll(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'atrium-embedded-'));
    await mkdir(path.join(parent, 'backups'));
  });
  afterAll(async () => {
    await server?.stop();
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it('copies the stopped data directory and puts it back', async () => {
    await start();
    const { token, made } = await makeData(server as ServerProcess);
    const cwd = path.join(parent, 'backups');
    await runBlock('embedded-backup', { cwd, replace: [['/var/lib', parent]], service });
    const copies = readdirSync(cwd).filter((file) => file.endsWith('.tar.gz'));
    expect(copies).toHaveLength(1);
    expect((await afterBackup(server as ServerProcess, token)).status).toBe(200);
    await runBlock('embedded-restore', {
      cwd,
      replace: [
        ['/var/lib', parent],
        ['atrium-2026-01-31.tar.gz', copies[0] as string],
      ],
      service,
    });
    await expectBackedUpData(server as ServerProcess, made);
  });
});
