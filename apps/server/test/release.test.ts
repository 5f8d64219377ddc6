import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '@atrium/agent';
import { and, eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/client';
import { accounts, releaseClients, releaseLogChunks, releaseStepRuns, tenantUsers } from '../src/db/schema';
import type { ReleaseEngine } from '../src/modules/release/engine';
import { buildTestApp, engines } from './helper';
import { brokerHookOf } from './realtime-helpers';
import { type Caller, fieldsOf, signIn } from './system/api';
import { unique, until } from './wait';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;
const agentCli = fileURLToPath(new URL('../../../packages/agent/src/cli.ts', import.meta.url));
const SECRET = 'pa55-Very-secret-value';
// long enough that no live agent loses a task on a busy machine: the tests that need the lease to run out
// move the app clock past it
const LEASE_MS = 60_000;

/** Whether a process runs (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe.each(engines)('release management with real agents on %s', (engine) => {
  let ctx: Ctx;
  let admin: Caller;
  let server: string;
  const agents: Agent[] = [];
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  let tenantId: number;

  const workDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-agent-'));
    dirs.push(dir);
    return dir;
  };
  const token = async () => {
    const res = await admin.post('/api/release/client/enrol-token', {});
    expect(res.status).toBe(200);
    return res.body.data.token as string;
  };
  /** An enrolled, approved agent running in this process, connected to the embedded broker. */
  const startAgent = async (labels: string[] = []) => {
    const agent = new Agent({ server, work: await workDir(), enrol: await token(), labels, graceMs: 1000, reconnectMs: 300 });
    agents.push(agent);
    const credentials = await agent.start();
    expect((await admin.put(`/api/release/client/${credentials.id}/approve`, {})).status).toBe(200);
    await until('agent online', async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'online');
    return { agent, credentials, work: dirs.at(-1) as string };
  };
  const ability = async (body: string, timeoutSec = 120) => {
    const created = await admin.post('/api/release/ability', { key: unique('ab'), name: 'Step', runtime: 'shell', body, timeoutSec });
    expect(created.status).toBe(200);
    expect((await admin.put(`/api/release/ability/${created.body.data.id}/publish`, {})).status).toBe(200);
    return created.body.data.id as number;
  };
  const setup = async (bodies: string[], envExtra: Record<string, unknown> = {}, labels: string[] = []) => {
    const project = (await admin.post('/api/release/project', { key: unique('p'), name: 'Shop' })).body.data.id as number;
    const env = await admin.post('/api/release/env', {
      key: unique('e'),
      name: 'Staging',
      variables: [
        { name: 'TOKEN', value: SECRET, secret: true },
        { name: 'REGION', value: 'north', secret: false },
      ],
      ...envExtra,
    });
    expect(env.status).toBe(200);
    const steps = [];
    for (const body of bodies) steps.push({ abilityId: await ability(body), params: { GREETING: 'world' }, labels });
    const process = await admin.post('/api/release/process', { name: 'Deploy', projectId: project, steps });
    expect(process.status).toBe(200);
    return { projectId: project, envId: env.body.data.id as number, processId: process.body.data.id as number };
  };
  const task = async (api: Caller, ids: { projectId: number; envId: number; processId: number }, version = '1.0.0') => {
    const res = await api.post('/api/release/task', { ...ids, version });
    expect(res.status).toBe(200);
    return res.body.data as { id: number; status: string };
  };
  const statusOf = async (id: number) => (await admin.get(`/api/release/task/${id}`)).body.data.status as string;
  const finished = (id: number) =>
    until(`task ${id} finished`, async () => {
      const status = await statusOf(id);
      return ['SUCCEEDED', 'FAILED', 'PARTIAL', 'CANCELED', 'LOST', 'TIMED_OUT'].includes(status) ? status : null;
    });
  const logOf = async (id: number) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/release/task/${id}/log`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', RELEASE_LEASE_MS: String(LEASE_MS), RELEASE_LOG_CAP_BYTES: '4096' });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    tenantId = (await admin.get('/api/user/info')).body.data?.tenantId ?? 1;
  });
  afterAll(async () => {
    for (const agent of agents) await agent.stop().catch(() => {});
    for (const child of children) child.kill('SIGKILL');
    await ctx?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('enrols an agent once per token: it waits PENDING until approved, a reused token is refused', async () => {
    const enrolToken = await token();
    const agent = new Agent({ server, work: await workDir(), enrol: enrolToken, reconnectMs: 300 });
    agents.push(agent);
    const credentials = await agent.start();
    const pending = (await admin.get(`/api/release/client/${credentials.id}`)).body.data;
    expect(pending).toMatchObject({ status: 'PENDING', presence: 'offline' });
    expect(pending.secretHash).toBeUndefined();
    // the list pages and filters the agents, and shows no secret's hash either
    const waiting = (await admin.get('/api/release/client?status=PENDING&presence=offline&sort=hostname:asc&pageSize=200')).body.data;
    expect(waiting.list.map((c: { id: number }) => c.id)).toContain(credentials.id);
    expect(waiting.list.every((c: { status: string; secretHash?: string }) => c.status === 'PENDING' && !c.secretHash)).toBe(true);
    const none = await admin.get('/api/release/client?status=GONE');
    expect([none.status, fieldsOf(none.body)]).toEqual([400, ['status']]);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/release/client/enrol',
      payload: { token: enrolToken, hostname: 'rogue' },
    });
    expect(again.statusCode).toBe(409);
    expect((await admin.put(`/api/release/client/${credentials.id}/approve`, {})).status).toBe(200);
    await until(
      'approved agent online',
      async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'online',
    );
    const active = (await admin.get(`/api/release/client?status=ACTIVE&hostname=${encodeURIComponent(pending.hostname)}`)).body.data;
    expect(active.list.map((c: { id: number }) => c.id)).toContain(credentials.id);
  });

  it('runs a real shell step: output in the log, params and variables as environment, the secret never stored', async () => {
    const { agent } = await startAgent(['ok']);
    const ids = await setup(
      [
        'echo "hello $ATRIUM_VAR_GREETING from $ATRIUM_VAR_REGION"\necho "token=$ATRIUM_VAR_TOKEN"\nprintf %s "$ATRIUM_VAR_TOKEN" | base64\necho "cwd=$(pwd)"',
        'echo second step',
      ],
      {},
      ['ok'],
    );
    const env = (await admin.get(`/api/release/env/${ids.envId}`)).body.data;
    expect(JSON.stringify(env)).not.toContain(SECRET);
    const created = await task(admin, ids);
    expect(created.status).toBe('QUEUED');
    expect(await finished(created.id)).toBe('SUCCEEDED');
    const log = await logOf(created.id);
    expect(log).toContain('hello world from north');
    expect(log).toContain('second step');
    expect(log).toContain('token=******');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(Buffer.from(SECRET).toString('base64').replace(/=+$/, ''));
    expect((await admin.get(`/api/release/task/${created.id}/log?format=json`)).body.data.text).toBe(log);
    const stored = await withTenant(ctx.database.db, tenantId, (tx) =>
      tx.select({ text: releaseLogChunks.text }).from(releaseLogChunks).where(eq(releaseLogChunks.taskId, created.id)),
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.map((s) => s.text).join('')).not.toContain(SECRET);
    const detail = (await admin.get(`/api/release/task/${created.id}`)).body.data;
    expect(detail.stepRuns.map((r: { status: string; exitCode: number }) => [r.status, r.exitCode])).toEqual([
      ['SUCCEEDED', 0],
      ['SUCCEEDED', 0],
    ]);
    await agent.stop();
  });

  it('marks the task FAILED with the exit code of a failing step, and runs no later step', async () => {
    const { agent } = await startAgent(['fail']);
    const ids = await setup(['echo before failing\nexit 3', 'echo never'], {}, ['fail']);
    const created = await task(admin, ids);
    expect(await finished(created.id)).toBe('FAILED');
    const detail = (await admin.get(`/api/release/task/${created.id}`)).body.data;
    expect(detail.exitCode).toBe(3);
    expect(detail.stepRuns).toHaveLength(1);
    const log = await logOf(created.id);
    expect(log).toContain('before failing');
    expect(log).not.toContain('never');
    // retry: the same snapshot again, as a new task
    const retry = await admin.post(`/api/release/task/${created.id}/retry`, {});
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ kind: 'RETRY', version: '1.0.0' });
    expect(await finished(retry.body.data.id)).toBe('FAILED');
    await agent.stop();
  });

  it('retries a failed step as often as the step says, each attempt with its own run, then gives up', async () => {
    const { agent } = await startAgent(['retry']);
    const ids = await setup(['echo placeholder'], {}, ['retry']);
    const marks = await mkdtemp(path.join(os.tmpdir(), 'atrium-retry-'));
    // fails on its first run only: the mark left by that run makes the second succeed
    const flaky = await ability(
      'if [ -f "$ATRIUM_VAR_MARK" ]; then echo "second attempt"; else touch "$ATRIUM_VAR_MARK"; echo "first attempt"; exit 4; fi',
    );
    const broken = await ability('echo "attempt of a broken step"; exit 7');
    const process = await admin.post('/api/release/process', {
      name: 'Flaky',
      projectId: ids.projectId,
      steps: [
        { abilityId: flaky, params: { MARK: path.join(marks, 'flaky') }, labels: ['retry'], retries: 1 },
        { abilityId: broken, params: {}, labels: ['retry'], retries: 2 },
      ],
    });
    expect(process.status).toBe(200);
    const created = await task(admin, { ...ids, processId: process.body.data.id });
    expect(await finished(created.id)).toBe('FAILED');
    const detail = (await admin.get(`/api/release/task/${created.id}`)).body.data;
    expect(detail.exitCode).toBe(7);
    expect(
      detail.stepRuns.map((r: { stepIndex: number; status: string; exitCode: number }) => [r.stepIndex, r.status, r.exitCode]),
    ).toEqual([
      [0, 'FAILED', 4],
      [0, 'SUCCEEDED', 0],
      [1, 'FAILED', 7],
      [1, 'FAILED', 7],
      [1, 'FAILED', 7],
    ]);
    const log = await logOf(created.id);
    expect(log).toContain('first attempt');
    expect(log).toContain('second attempt');
    expect(log.split('attempt of a broken step').length - 1).toBe(3);
    await rm(marks, { recursive: true, force: true });
    await agent.stop();
  });

  it('runs on every fitting host: one failing makes it PARTIAL, and a retry runs on that host only', async () => {
    const good = await startAgent(['fleet']);
    const bad = await startAgent(['fleet']);
    // a host with a `broken` file beside its runs fails the step
    await writeFile(path.join(bad.work, 'broken'), '');
    const ids = await setup(
      ['if [ -e ../../broken ]; then echo "broken host"; exit 5; fi\necho "deployed $ATRIUM_VERSION"', 'echo "checked"'],
      {},
      ['fleet'],
    );
    const created = await task(admin, ids);
    expect(await finished(created.id)).toBe('PARTIAL');
    const detail = (await admin.get(`/api/release/task/${created.id}`)).body.data;
    expect([...detail.targets].sort()).toEqual([good.credentials.id, bad.credentials.id].sort());
    expect(detail.exitCode).toBe(5);
    const byHost = (host: number) =>
      detail.stepRuns
        .filter((r: { clientId: number }) => r.clientId === host)
        .map((r: { stepIndex: number; status: string }) => [r.stepIndex, r.status]);
    expect(byHost(good.credentials.id)).toEqual([
      [0, 'SUCCEEDED'],
      [1, 'SUCCEEDED'],
    ]);
    expect(byHost(bad.credentials.id)).toEqual([[0, 'FAILED']]);
    const log = await logOf(created.id);
    expect(log).toContain('deployed 1.0.0');
    expect(log).toContain('broken host');

    // the host is mended; retry goes to it alone
    await rm(path.join(bad.work, 'broken'));
    const retry = await admin.post(`/api/release/task/${created.id}/retry`, {});
    expect(retry.status).toBe(200);
    expect(await finished(retry.body.data.id)).toBe('SUCCEEDED');
    const again = (await admin.get(`/api/release/task/${retry.body.data.id}`)).body.data;
    expect(again.targets).toEqual([bad.credentials.id]);
    expect(new Set(again.stepRuns.map((r: { clientId: number }) => r.clientId))).toEqual(new Set([bad.credentials.id]));
    await good.agent.stop();
    await bad.agent.stop();
  });

  it('rolls back to the release before, as it was deployed; with none kept it is a 409', async () => {
    const { agent } = await startAgent(['rollback']);
    const ids = await setup(['echo "deploying $ATRIUM_VERSION"'], {}, ['rollback']);
    const one = await task(admin, ids, '1.0');
    expect(await finished(one.id)).toBe('SUCCEEDED');
    const two = await task(admin, ids, '2.0');
    expect(await finished(two.id)).toBe('SUCCEEDED');
    expect((await admin.post(`/api/release/task/${one.id}/rollback`, {})).status).toBe(409);
    const back = await admin.post(`/api/release/task/${two.id}/rollback`, {});
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ kind: 'ROLLBACK', version: '1.0' });
    expect(await finished(back.body.data.id)).toBe('SUCCEEDED');
    expect(await logOf(back.body.data.id)).toContain('deploying 1.0');
    await agent.stop();
  });

  it('caps a step log with a visible truncation line', async () => {
    const { agent } = await startAgent(['cap']);
    const ids = await setup(['i=0; while [ $i -lt 2000 ]; do echo "line $i of a long log"; i=$((i+1)); done'], {}, ['cap']);
    const created = await task(admin, ids);
    expect(await finished(created.id)).toBe('SUCCEEDED');
    const log = await logOf(created.id);
    expect(log).toContain('[log truncated');
    expect(Buffer.byteLength(log)).toBeLessThan(4096 + 200);
    await agent.stop();
  });

  it('cancel kills a sleep step and its children', async () => {
    const { agent, work } = await startAgent(['cancel']);
    const ids = await setup(
      ['sleep 300 &\necho $! > child.pid\n(sleep 300; echo grandchild done) &\necho $! > sub.pid\necho $$ > shell.pid\nsleep 300'],
      {},
      ['cancel'],
    );
    const created = await task(admin, ids);
    const run = await until('step running', async () => (await admin.get(`/api/release/task/${created.id}`)).body.data.stepRuns?.[0]);
    const runDir = path.join(work, 'runs', String(run.id));
    await until('pids written', async () => existsSync(path.join(runDir, 'shell.pid')));
    const pids = await Promise.all(
      ['child.pid', 'sub.pid', 'shell.pid'].map(async (f) => Number((await readFile(path.join(runDir, f), 'utf8')).trim())),
    );
    expect(pids.every(alive)).toBe(true);
    expect((await admin.put(`/api/release/task/${created.id}/cancel`, {})).status).toBe(200);
    expect(await finished(created.id)).toBe('CANCELED');
    await until('every process of the step gone', async () => pids.every((pid) => !alive(pid)));
    expect(pids.filter(alive)).toEqual([]);
    await agent.stop();
  });

  it('never runs two tasks of one project and environment at once: the second waits in the queue', async () => {
    const one = await startAgent(['lock']);
    const two = await startAgent(['lock']);
    const ids = await setup(['sleep 1\necho "done $ATRIUM_TASK_ID"'], {}, ['lock']);
    const first = await task(admin, ids, '1.0.0');
    const second = await task(admin, ids, '1.0.1');
    await until('first running', async () => (await statusOf(first.id)) === 'RUNNING');
    // an agent is free, yet the second task waits for the first
    expect(await statusOf(second.id)).toBe('QUEUED');
    expect(await finished(first.id)).toBe('SUCCEEDED');
    expect(await finished(second.id)).toBe('SUCCEEDED');
    const a = (await admin.get(`/api/release/task/${first.id}`)).body.data;
    const b = (await admin.get(`/api/release/task/${second.id}`)).body.data;
    expect(new Date(b.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(a.finishedAt).getTime());
    await one.agent.stop();
    await two.agent.stop();
  });

  // once, in a full run with both cores saturated, the task was LOST seven seconds after the kill, before the
  // clock moved (on PGlite); the cause is not found yet (the suite's one retry, vitest.config.ts, covers it)
  it('a killed agent leaves its task LOST after the lease and shows offline', async () => {
    const work = await workDir();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', agentCli, '--server', server, '--enrol', await token(), '--work', work, '--labels', 'killed'],
      {
        stdio: 'ignore',
      },
    );
    children.push(child);
    const credentials = await until('agent enrolled', async () => {
      try {
        return JSON.parse(await readFile(path.join(work, 'agent.json'), 'utf8')) as { id: number };
      } catch {
        return null;
      }
    });
    await admin.put(`/api/release/client/${credentials.id}/approve`, {});
    await until('agent online', async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'online');
    const ids = await setup(['echo $$ > shell.pid\nsleep 60'], {}, ['killed']);
    const created = await task(admin, ids);
    const run = await until('step running', async () => (await admin.get(`/api/release/task/${created.id}`)).body.data.stepRuns?.[0]);
    const pidFile = path.join(work, 'runs', String(run.id), 'shell.pid');
    await until('step started', async () => existsSync(pidFile));
    child.kill('SIGKILL');
    // the broker sees the connection close: offline at once, while the task waits out its lease
    await until('agent offline', async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'offline');
    expect(await statusOf(created.id)).toBe('RUNNING');
    // no heartbeat for the lease and its grace: the next sweep declares the task lost
    ctx.clock.advance(2 * LEASE_MS + 1000);
    expect(await finished(created.id)).toBe('LOST');
    expect((await admin.get(`/api/release/task/${created.id}`)).body.data.stepRuns[0].status).toBe('LOST');
    // the orphaned step is the host's to clean up; the test cleans its own
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  });

  it('keeps a task whose lease ran out while its heartbeat was still on the way, within the grace', async () => {
    const { agent, work } = await startAgent(['late']);
    // the step runs in work/runs/{id}: it waits for the test's go-ahead two folders up
    const ids = await setup(['while [ ! -f ../../go ]; do sleep 0.1; done\necho released'], {}, ['late']);
    const mark = path.join(work, 'go');
    const created = await task(admin, ids);
    await until('step running', async () => (await statusOf(created.id)) === 'RUNNING');
    // the lease has run out, as on a server too busy to read the agent's heartbeat in time
    ctx.clock.advance(LEASE_MS + LEASE_MS / 2);
    await (ctx.app.realtime.agentBridge as ReleaseEngine).sweep();
    expect(await statusOf(created.id)).toBe('RUNNING');
    await writeFile(mark, '');
    expect(await finished(created.id)).toBe('SUCCEEDED');
    await agent.stop();
  });

  it('sends a run again to an agent whose hello does not list it yet, and ends it LOST only once the agent had taken it', async () => {
    // the agent's own connection, driven by hand: its hello can be read after a run was dispatched, as on a
    // busy server, or after a connection that dropped while the run's command was on its way
    const { agent, credentials } = await startAgent(['hello-race']);
    await agent.stop();
    await until('agent offline', async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'offline');
    const client = await mqtt.connectAsync(`ws://127.0.0.1:${ctx.app.realtime.port}/mqtt`, {
      clientId: `agent-${credentials.tenantId}-${credentials.id}`,
      username: credentials.username,
      password: credentials.secret,
      reconnectPeriod: 0,
      protocolVersion: 4,
    });
    const up = (kind: string, message: unknown) =>
      client.publishAsync(`rm/${credentials.tenantId}/c/${credentials.id}/up/${kind}`, JSON.stringify(message), { qos: 1 });
    const commands: { type: string; stepRunId: number }[] = [];
    client.on('message', (_topic, payload) => commands.push(JSON.parse(payload.toString('utf8'))));
    await client.subscribeAsync(`rm/${credentials.tenantId}/c/${credentials.id}/down`, { qos: 1 });
    await until('agent online', async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'online');
    const created = await task(admin, await setup(['echo hi'], {}, ['hello-race']));
    const first = await until('run command', async () => commands.find((c) => c.type === 'run'));
    const acceptedAt = async () => {
      const [run] = await withTenant(ctx.database.db, credentials.tenantId, (tx) =>
        tx.select({ acceptedAt: releaseStepRuns.acceptedAt }).from(releaseStepRuns).where(eq(releaseStepRuns.id, first.stepRunId)),
      );
      return run?.acceptedAt ?? null;
    };
    // a hello written before the command arrived: the run is sent again, not lost
    await up('hello', { runs: [] });
    await until('run sent again', async () => commands.filter((c) => c.type === 'run' && c.stepRunId === first.stepRunId).length === 2);
    expect(await statusOf(created.id)).toBe('RUNNING');
    expect(await acceptedAt()).toBeNull();
    // the agent takes it; a later hello without it means the agent lost it (it restarted)
    await up('status', { stepRunId: first.stepRunId, state: 'started' });
    await until('run taken', async () => (await acceptedAt()) !== null);
    await up('hello', { runs: [] });
    expect(await finished(created.id)).toBe('LOST');
    expect(commands.filter((c) => c.type === 'run')).toHaveLength(2);
    await client.endAsync(true);
  });

  it('lets an agent use only its own topics, and refuses a wrong secret', async () => {
    const a = await startAgent(['topics-a']);
    const b = await startAgent(['topics-b']);
    await a.agent.stop();
    const url = `ws://127.0.0.1:${ctx.app.realtime.port}/mqtt`;
    const connect = (password: string) =>
      mqtt.connectAsync(url, {
        clientId: `agent-${a.credentials.tenantId}-${a.credentials.id}`,
        username: a.credentials.username,
        password,
        reconnectPeriod: 0,
        protocolVersion: 4,
      });
    await expect(connect('not-the-secret')).rejects.toThrow();
    const client = await connect(a.credentials.secret);
    const own = await client.subscribeAsync(`rm/${a.credentials.tenantId}/c/${a.credentials.id}/down`, { qos: 1 });
    expect(own[0]?.qos).toBe(1);
    for (const topic of [`rm/${b.credentials.tenantId}/c/${b.credentials.id}/down`, `rm/${b.credentials.tenantId}/c/+/down`, 'rm/#', '#']) {
      // the broker answers 128 (refused); the client library turns it into an error
      const granted = await client.subscribeAsync(topic, { qos: 1 }).then(
        (answer) => answer[0]?.qos,
        (error: { packet?: { granted?: number[] } }) => error.packet?.granted?.[0] ?? 128,
      );
      expect(granted).toBe(128);
    }
    // publishing on another agent's topic is refused: the broker drops the connection
    const dropped = new Promise<boolean>((resolve) => client.once('close', () => resolve(true)));
    client.publish(`rm/${b.credentials.tenantId}/c/${b.credentials.id}/up/status`, JSON.stringify({ stepRunId: 1, state: 'finished' }), {
      qos: 1,
    });
    expect(await dropped).toBe(true);
    await client.endAsync(true);
    await b.agent.stop();
    // the external broker's hook applies the same rules
    const hook = brokerHookOf(ctx.app, { agents: () => ctx.app.realtime.agentBridge });
    const clientid = `agent-${a.credentials.tenantId}-${a.credentials.id}`;
    const username = a.credentials.username;
    expect(await hook.authenticate({ clientid, username, password: a.credentials.secret })).toMatchObject({ result: 'allow' });
    expect(await hook.authenticate({ clientid, username, password: 'wrong' })).toMatchObject({ result: 'deny' });
    expect(await hook.authenticate({ clientid: 'other', username, password: a.credentials.secret })).toMatchObject({ result: 'deny' });
    const ownDown = `rm/${a.credentials.tenantId}/c/${a.credentials.id}/down`;
    const otherDown = `rm/${b.credentials.tenantId}/c/${b.credentials.id}/down`;
    expect(await hook.authorize({ clientid, username, topic: ownDown, action: 'subscribe' })).toEqual({ result: 'allow' });
    expect(await hook.authorize({ clientid, username, topic: otherDown, action: 'subscribe' })).toEqual({ result: 'deny' });
    expect(await hook.authorize({ clientid, username, topic: `${otherDown.replace('/down', '')}/up/log`, action: 'publish' })).toEqual({
      result: 'deny',
    });
  });

  it('disconnects an agent at once when it is disabled or revoked: its running step is LOST, and nothing it sends later is taken', async () => {
    for (const action of ['disable', 'revoke'] as const) {
      const label = `end-${action}`;
      const { agent, credentials, work } = await startAgent([label]);
      const ids = await setup(['echo before\nsleep 2\necho "after $REGION"\ntouch done'], {}, [label]);
      const created = await task(admin, ids);
      const run = await until('step running', async () => (await admin.get(`/api/release/task/${created.id}`)).body.data.stepRuns?.[0]);
      await until('first line logged', async () => (await logOf(created.id)).includes('before'));
      expect((await admin.put(`/api/release/client/${credentials.id}/${action}`, {})).status).toBe(200);
      await until(
        `${action}d agent offline`,
        async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'offline',
        8000,
      );
      expect(await finished(created.id)).toBe('LOST');
      // the step's process ends on the host; what it reports then is not taken
      await until('step process done', async () => existsSync(path.join(work, 'runs', String(run.id), 'done')), 8000);
      expect(await logOf(created.id)).not.toContain('after');
      expect((await admin.get(`/api/release/task/${created.id}`)).body.data.stepRuns[0].status).toBe('LOST');
      await agent.stop();
    }
  });

  it('takes no log, result or heartbeat from an agent that is not ACTIVE at that moment, and sends it nothing', async () => {
    const { agent, credentials } = await startAgent(['inactive']);
    const ids = await setup(['sleep 2\necho finished'], {}, ['inactive']);
    const created = await task(admin, ids);
    const run = await until('step running', async () => (await admin.get(`/api/release/task/${created.id}`)).body.data.stepRuns?.[0]);
    await agent.stop();
    // disabled by another instance whose disconnection has not arrived here: the row is what counts
    const row = () =>
      withTenant(ctx.database.db, credentials.tenantId, (tx) =>
        tx.select().from(releaseClients).where(eq(releaseClients.id, credentials.id)),
      );
    await withTenant(ctx.database.db, credentials.tenantId, (tx) =>
      tx.update(releaseClients).set({ status: 'DISABLED' }).where(eq(releaseClients.id, credentials.id)),
    );
    const engine = ctx.app.realtime.agentBridge as ReleaseEngine;
    const me = { tenantId: credentials.tenantId, clientId: credentials.id };
    const say = (kind: 'log' | 'status' | 'hb', message: unknown) => engine.onMessage(me, kind, Buffer.from(JSON.stringify(message)));
    const [before] = await row();
    await say('log', { stepRunId: run.id, seq: 900, text: 'a line from a disabled agent' });
    await say('hb', { runs: [run.id] });
    await say('status', { stepRunId: run.id, state: 'finished', exitCode: 0, reason: 'exit' });
    expect(await logOf(created.id)).not.toContain('a line from a disabled agent');
    expect((await admin.get(`/api/release/task/${created.id}`)).body.data.stepRuns[0].status).not.toBe('SUCCEEDED');
    const [after] = await row();
    expect(after?.lastSeenAt).toEqual(before?.lastSeenAt);
    expect(await engine.send(me, { type: 'cancel', stepRunId: run.id })).toBe(false);
  });

  it("refuses a printer that takes an agent's client id: the agent stays connected", async () => {
    const { agent, credentials } = await startAgent(['ids']);
    const sn = unique('SN');
    const printer = await admin.post('/api/mall/printer', { name: 'Ids', vendor: 'mqtt', sn, deviceKey: 'printer-key-1', paperWidth: 58 });
    expect(printer.status).toBe(200);
    const url = `ws://127.0.0.1:${ctx.app.realtime.port}/mqtt`;
    const connect = (clientId: string) =>
      mqtt.connectAsync(url, { clientId, username: `printer:${sn}`, password: 'printer-key-1', reconnectPeriod: 0, protocolVersion: 4 });
    let presence = 'online';
    const drops = ctx.app.realtime.agentBridge as ReleaseEngine;
    const watch = drops.onPresence.bind(drops);
    drops.onPresence = (who, online) => {
      if (who.clientId === credentials.id && !online) presence = 'offline';
      watch(who, online);
    };
    try {
      await expect(connect(`agent-${credentials.tenantId}-${credentials.id}`)).rejects.toThrow();
      await expect(connect(`atrium-server-${credentials.id}`)).rejects.toThrow();
      const own = await connect(`printer-${sn}`);
      await own.endAsync(true);
    } finally {
      drops.onPresence = watch;
    }
    expect(presence).toBe('online');
    await agent.stop();
  });

  it('disconnects an agent that publishes too fast, and HTTP requests are answered meanwhile', async () => {
    const { agent, credentials } = await startAgent(['flood']);
    await agent.stop();
    const url = `ws://127.0.0.1:${ctx.app.realtime.port}/mqtt`;
    const client = await mqtt.connectAsync(url, {
      clientId: `agent-${credentials.tenantId}-${credentials.id}`,
      username: credentials.username,
      password: credentials.secret,
      reconnectPeriod: 0,
      protocolVersion: 4,
    });
    const dropped = new Promise<boolean>((resolve) => {
      client.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 60_000).unref();
    });
    for (let i = 0; i < 2000; i++) client.publish(`rm/${credentials.tenantId}/c/${credentials.id}/up/hb`, '{"runs":[]}', { qos: 1 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => admin.get('/api/user/info')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await dropped).toBe(true);
    client.end(true);
  });

  it('decides task actions by user-project grants: an APPROVER approves, the creator cannot, other tenants see nothing', async () => {
    const ids = await setup(['echo approved'], { protected: true, requiredApprovals: 1 }, ['none-such-label']);
    const created = await task(admin, ids);
    expect(created.status).toBe('PENDING_APPROVAL');
    const own = await admin.put(`/api/release/task/${created.id}/approve`, {});
    expect([403, 409]).toContain(own.status);
    // the task's detail says so beforehand, so the creator is offered a disabled button with the reason
    const approveRefusal = async (c: Caller) => (await c.get(`/api/release/task/${created.id}`)).body.data.approveRefusal;
    expect(await approveRefusal(admin)).toBe('release.selfApproval');
    const user = await signIn(ctx, 'user', 'User@123456');
    // no grant yet: the task does not exist for them, and they cannot grant themselves one
    expect((await user.get(`/api/release/task/${created.id}`)).status).toBe(404);
    const [row] = await withTenant(ctx.database.db, tenantId, (tx) =>
      tx
        .select({ id: tenantUsers.id })
        .from(tenantUsers)
        .innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
        .where(and(eq(accounts.accountId, 'user'), sql`true`)),
    );
    const userId = (row as { id: number }).id;
    const selfGrant = await user.post('/api/release/user-project', {
      userId,
      projectId: ids.projectId,
      envId: ids.envId,
      level: 'MAINTAINER',
    });
    expect(selfGrant.status).toBe(403);
    expect(
      (await admin.post('/api/release/user-project', { userId, projectId: ids.projectId, envId: ids.envId, level: 'VIEWER' })).status,
    ).toBe(200);
    expect((await user.get(`/api/release/task/${created.id}`)).status).toBe(200);
    expect((await user.put(`/api/release/task/${created.id}/approve`, {})).status).toBe(403);
    expect(await approveRefusal(user)).toBe('release.approverOnly');
    expect((await user.post('/api/release/task', { ...ids, version: '2' })).status).toBe(403);
    expect(
      (await admin.post('/api/release/user-project', { userId, projectId: ids.projectId, envId: ids.envId, level: 'APPROVER' })).status,
    ).toBe(200);
    expect(await approveRefusal(user)).toBeNull();
    // what they decide on, by name: their role lists no projects, environments or processes
    expect((await user.get('/api/release/project')).status).toBe(403);
    const seen = (await user.get(`/api/release/task/${created.id}`)).body.data;
    expect([seen.projectName, seen.envName, seen.processName]).toEqual(['Shop', 'Staging', 'Deploy']);
    const listed = (await user.get(`/api/release/task?projectId=${ids.projectId}`)).body.data.list as { id: number; envName: string }[];
    expect(listed.find((t) => t.id === created.id)?.envName).toBe('Staging');
    const approved = await user.put(`/api/release/task/${created.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe('QUEUED');
    // a task that waits for them now tells the approver, in their message box
    const waiting = await task(admin, ids, '3.0-waiting');
    expect(waiting.status).toBe('PENDING_APPROVAL');
    const box = await until('approver notified', async () => {
      const list = (await user.get('/api/system/notification?pageSize=50')).body.data?.list as
        | { title: string; link: string }[]
        | undefined;
      return list?.find((n) => n.link === `/release/task?id=${waiting.id}`);
    });
    expect(box.title).toContain('3.0-waiting');
    expect((await admin.put(`/api/release/task/${waiting.id}/cancel`, {})).status).toBe(200);
    // another tenant's administrator does not reach this tenant's task
    const acme = await signIn(ctx, 'acme', 'Acme@123456');
    expect((await acme.get(`/api/release/task/${created.id}`)).status).toBe(404);
    expect((await acme.put(`/api/release/task/${created.id}/cancel`, {})).status).toBe(404);
    expect((await admin.put(`/api/release/task/${created.id}/cancel`, {})).status).toBe(200);
  });

  it('refuses an environment naming one variable twice, on create and on update, naming the second', async () => {
    const variables = [
      { name: 'REGION', value: 'north' },
      { name: 'TOKEN', value: 'x', secret: true },
      { name: 'REGION', value: 'south' },
    ];
    const created = await admin.post('/api/release/env', { key: unique('e'), name: 'Twice', variables });
    expect([created.status, created.body.data.fields]).toEqual([400, [expect.objectContaining({ field: 'variables.2.name' })]]);
    const env = await admin.post('/api/release/env', { key: unique('e'), name: 'Once', variables: variables.slice(0, 2) });
    expect(env.status).toBe(200);
    const updated = await admin.put(`/api/release/env/${env.body.data.id}`, { name: 'Once', variables });
    expect([updated.status, updated.body.data.fields[0].field]).toEqual([400, 'variables.2.name']);
  });

  it('deletes an environment, project or process nothing refers to, and names what keeps a used one', async () => {
    // a label no agent has: the task stays queued until it is cancelled
    const used = await setup(['echo kept'], {}, ['none-such-label']);
    const queued = await task(admin, used);
    expect((await admin.put(`/api/release/task/${queued.id}/cancel`, {})).status).toBe(200);
    const refusal = async (path: string, lang = 'en-US') => {
      const res = await admin.del(`/api/release/${path}`, lang);
      return [res.status, res.body.data?.fields?.[0]?.message];
    };
    expect(await refusal(`env/${used.envId}`)).toEqual([409, 'The environment has 1 task(s): it cannot be deleted']);
    expect(await refusal(`env/${used.envId}`, 'zh-CN')).toEqual([409, '该环境有 1 个发布任务，不能删除']);
    expect(await refusal(`project/${used.projectId}`)).toEqual([409, 'The project has 1 process(es): it cannot be deleted']);
    // everything that keeps it, at once
    const project = await admin.del(`/api/release/project/${used.projectId}`);
    expect(project.body.message).toBe(
      'The project has 1 process(es): it cannot be deleted; The project has 1 task(s): it cannot be deleted',
    );
    expect(project.body.data.fields.map((f: { message: string }) => f.message)).toEqual([
      'The project has 1 process(es): it cannot be deleted',
      'The project has 1 task(s): it cannot be deleted',
    ]);
    expect(await refusal(`process/${used.processId}`)).toEqual([409, 'The process has 1 task(s): it cannot be deleted']);
    // nothing of them went
    expect((await admin.get(`/api/release/env/${used.envId}`)).status).toBe(200);
    const projects = (await admin.get('/api/release/project?pageSize=200')).body.data.list as { id: number }[];
    expect(projects.some((p) => p.id === used.projectId)).toBe(true);
    const processes = (await admin.get('/api/release/process?pageSize=200')).body.data.list as { id: number }[];
    expect(processes.some((p) => p.id === used.processId)).toBe(true);

    // a grant keeps its project and environment
    const spare = await setup(['echo spare']);
    const [member] = await withTenant(ctx.database.db, tenantId, (tx) =>
      tx
        .select({ id: tenantUsers.id })
        .from(tenantUsers)
        .innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
        .where(eq(accounts.accountId, 'user')),
    );
    const grant = await admin.post('/api/release/user-project', {
      userId: (member as { id: number }).id,
      projectId: spare.projectId,
      envId: spare.envId,
      level: 'VIEWER',
    });
    expect(grant.status).toBe(200);
    expect(await refusal(`env/${spare.envId}`)).toEqual([409, 'The environment has 1 user-project permission(s): it cannot be deleted']);
    expect((await admin.del(`/api/release/user-project/${grant.body.data.id}`)).status).toBe(200);

    // unused: the process, then its project, then the environment; gone for good
    expect((await admin.del(`/api/release/process/${spare.processId}`)).status).toBe(200);
    expect((await admin.del(`/api/release/project/${spare.projectId}`)).status).toBe(200);
    const gone = await admin.del(`/api/release/env/${spare.envId}`);
    expect([gone.status, gone.body.data.id]).toEqual([200, spare.envId]);
    expect((await admin.get(`/api/release/env/${spare.envId}`)).status).toBe(404);
    expect((await admin.del(`/api/release/env/${spare.envId}`)).status).toBe(404);
    const left = (await admin.get('/api/release/project?pageSize=200')).body.data.list as { id: number }[];
    expect(left.some((p) => p.id === spare.projectId)).toBe(false);
    // a task cannot be made from what is gone
    const late = await admin.post('/api/release/task', { ...spare, version: '1.0.0' });
    expect([late.status, late.body.data.fields[0].field]).toEqual([400, 'envId']);
  });

  it('lists tasks a page at a time, by project, environment and status, to each caller what their grants cover', async () => {
    const a = await setup(['echo a'], {}, ['none-such-label']);
    const b = await setup(['echo b'], {}, ['none-such-label']);
    const made = [await task(admin, a, '1'), await task(admin, a, '2'), await task(admin, a, '3'), await task(admin, b, '1')];
    const list = async (api: Caller, query: string) => (await api.get(`/api/release/task?${query}`)).body.data;
    const first = await list(admin, `projectId=${a.projectId}&pageSize=2`);
    expect([first.total, first.list.map((t: { version: string }) => t.version)]).toEqual([3, ['3', '2']]);
    const second = await list(admin, `projectId=${a.projectId}&pageSize=2&pageNum=2`);
    expect([second.total, second.list.map((t: { version: string }) => t.version)]).toEqual([3, ['1']]);
    expect((await list(admin, `envId=${b.envId}&status=QUEUED`)).total).toBe(1);
    expect((await list(admin, `projectId=${a.projectId}&status=RUNNING`)).total).toBe(0);
    // the ordinary user sees the tasks of the project and environment granted to them, and no others
    const user = await signIn(ctx, 'user', 'User@123456');
    const [member] = await withTenant(ctx.database.db, tenantId, (tx) =>
      tx
        .select({ id: tenantUsers.id })
        .from(tenantUsers)
        .innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
        .where(eq(accounts.accountId, 'user')),
    );
    const userId = (member as { id: number }).id;
    expect((await list(user, `projectId=${a.projectId}`)).total).toBe(0);
    const grant = await admin.post('/api/release/user-project', { userId, projectId: a.projectId, envId: a.envId, level: 'VIEWER' });
    expect(grant.status).toBe(200);
    const granted = await list(user, `projectId=${a.projectId}`);
    expect([granted.total, granted.list.map((t: { version: string }) => t.version)]).toEqual([3, ['3', '2', '1']]);
    expect((await list(user, `projectId=${b.projectId}`)).total).toBe(0);
    // bad filters are named
    const bad = await admin.get('/api/release/task?status=NOPE&pageSize=1000');
    expect([bad.status, fieldsOf(bad.body).sort()]).toEqual([400, ['pageSize', 'status']]);
    for (const t of made) expect((await admin.put(`/api/release/task/${t.id}/cancel`, {})).status).toBe(200);
    expect((await admin.del(`/api/release/user-project/${grant.body.data.id}`)).status).toBe(200);
  });

  it('freezes a published ability: edits are a 409, a new version is a new row', async () => {
    const key = unique('fz');
    const first = await admin.post('/api/release/ability', { key, name: 'A', runtime: 'shell', body: 'echo 1', timeoutSec: 10 });
    await admin.put(`/api/release/ability/${first.body.data.id}/publish`, {});
    const edit = await admin.put(`/api/release/ability/${first.body.data.id}`, {
      name: 'A',
      runtime: 'shell',
      body: 'echo 2',
      timeoutSec: 10,
    });
    expect(edit.status).toBe(409);
    const next = await admin.post('/api/release/ability', { key, name: 'A', runtime: 'shell', body: 'echo 2', timeoutSec: 10 });
    expect(next.body.data.version).toBe(2);
    expect(next.body.data.status).toBe('DRAFT');
  });

  it('pages the abilities, finds them by a key’s start in the key’s order, and numbers versions made at once without a 500', async () => {
    const key = unique('pg');
    const make = () => admin.post('/api/release/ability', { key, name: 'P', runtime: 'shell', body: 'echo p', timeoutSec: 10 });
    // made at once: each gets the next version, or a 409 naming the key when both took the same
    const raced = await Promise.all([make(), make(), make()]);
    for (const answer of raced) expect(answer.status === 200 || fieldsOf(answer.body).includes('key')).toBe(true);
    const made = raced.filter((a) => a.status === 200).length;
    expect(made).toBeGreaterThanOrEqual(1);
    // the key matches from the start: a longer key's versions come after this one's in the key's order
    await admin.post('/api/release/ability', { key: `${key}x`, name: 'P', runtime: 'shell', body: 'echo p', timeoutSec: 10 });
    const found = (await admin.get(`/api/release/ability?key=${key}&sort=key:asc&pageSize=200`)).body.data;
    expect(found.list.map((a: { key: string; version: number }) => `${a.key} v${a.version}`)).toEqual([
      ...Array.from({ length: made }, (_, i) => `${key} v${i + 1}`),
      `${key}x v1`,
    ]);
    const versions = (await admin.get(`/api/release/ability?key=${key}x&sort=version:desc`)).body.data;
    expect(versions.total).toBe(1);
    const page = (await admin.get('/api/release/ability?pageSize=1&pageNum=2')).body.data;
    expect([page.list.length, page.pageNum, page.pageSize]).toEqual([1, 2, 1]);
    expect(page.total).toBeGreaterThan(made);
    // an edit of a version that is not there is a 404, of another status a 409 naming the status
    const edit = { name: 'P', runtime: 'shell', body: 'echo q', timeoutSec: 10 };
    expect((await admin.put('/api/release/ability/2147483647', edit)).status).toBe(404);
    const draft = found.list[made - 1];
    await admin.put(`/api/release/ability/${draft.id}/publish`, {});
    await admin.put(`/api/release/ability/${draft.id}/deprecate`, {});
    const frozen = await admin.put(`/api/release/ability/${draft.id}`, edit);
    expect([frozen.status, fieldsOf(frozen.body)]).toEqual([409, ['status']]);
    expect((await admin.get(`/api/release/ability/${draft.id}`)).body.data.body).toBe('echo p');
  });
});
