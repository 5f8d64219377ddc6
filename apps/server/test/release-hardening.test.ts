import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent, StepRun } from '@atrium/agent';
import { realtimeTopic } from '@atrium/contracts/realtime';
import type { AgentRunCommand } from '@atrium/contracts/release';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema';
import { arena } from './attack/escalation';
import { buildTestApp, engines } from './helper';
import { brokerUrl, collect, connect } from './realtime-helpers';
import { type Caller, signIn } from './system/api';
import { unique, until } from './wait';

/** Step-run ids of the runs these tests start on an agent directly. */
let runIds = 0;

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

/**
 * Start-up variables of shells, the dynamic loader and interpreters: each, honoured, would run code of
 * the caller's choosing or change how the step's commands behave. `value(dir)` is what makes the effect
 * visible: a marker file in `dir/marks` named after the variable, or output the test looks for.
 */
const hooks = (dir: string): Record<string, string> => {
  const mark = (name: string) => `$(touch ${dir}/marks/${name})`;
  return {
    // shells
    BASH_ENV: `${dir}/hook.sh`,
    ENV: `${dir}/hook.sh`,
    KSH_ENV: `${dir}/hook.sh`,
    ZDOTDIR: dir,
    SHELLOPTS: 'xtrace',
    BASHOPTS: 'xpg_echo',
    PS4: mark('PS4'),
    PS1: mark('PS1'),
    PROMPT_COMMAND: `touch ${dir}/marks/PROMPT_COMMAND`,
    IFS: '_',
    CDPATH: dir,
    GLOBIGNORE: '*',
    HISTFILE: `${dir}/marks/HISTFILE`,
    BASH_XTRACEFD: '1',
    PATH: `${dir}/bin:/usr/local/bin:/usr/bin:/bin`,
    HOME: dir,
    SHELL: `${dir}/bin/id`,
    TMPDIR: `${dir}/marks`,
    POSIXLY_CORRECT: '1',
    // the dynamic loader and the C library
    LD_PRELOAD: `${dir}/missing-preload.so`,
    LD_LIBRARY_PATH: dir,
    LD_AUDIT: `${dir}/missing-audit.so`,
    LD_DEBUG: 'all',
    LD_DEBUG_OUTPUT: `${dir}/marks/LD_DEBUG_OUTPUT`,
    LD_SHOW_AUXV: '1',
    LD_BIND_NOW: '1',
    LD_PROFILE: 'libc.so.6',
    GCONV_PATH: dir,
    LOCPATH: dir,
    NLSPATH: `${dir}/%N`,
    HOSTALIASES: `${dir}/hosts`,
    RESOLV_HOST_CONF: `${dir}/hosts`,
    MALLOC_CHECK_: '3',
    GLIBC_TUNABLES: 'glibc.malloc.check=3',
    TZDIR: dir,
    // interpreters and tools
    NODE_OPTIONS: `--require ${dir}/hook.cjs`,
    NODE_PATH: dir,
    PYTHONSTARTUP: `${dir}/hook.py`,
    PYTHONPATH: `${dir}/py`,
    PYTHONHOME: dir,
    PYTHONINSPECT: '1',
    PYTHONWARNINGS: 'error',
    PERL5OPT: '-MAtriumHook',
    PERL5LIB: `${dir}/perl`,
    PERLLIB: `${dir}/perl`,
    PERL5DB: `BEGIN { system "touch ${dir}/marks/PERL5DB" }`,
    RUBYOPT: `-r${dir}/hook.rb`,
    RUBYLIB: dir,
    JAVA_TOOL_OPTIONS: '-Datrium.hook=1',
    _JAVA_OPTIONS: '-Datrium.hook=1',
    JDK_JAVA_OPTIONS: '-Datrium.hook=1',
    GIT_SSH_COMMAND: `touch ${dir}/marks/GIT_SSH_COMMAND`,
    GIT_EXEC_PATH: `${dir}/bin`,
    GIT_CONFIG_GLOBAL: `${dir}/gitconfig`,
    PAGER: `touch ${dir}/marks/PAGER`,
    EDITOR: `touch ${dir}/marks/EDITOR`,
    LESSOPEN: `|touch ${dir}/marks/LESSOPEN`,
    LANG: 'xx_XX.ATRIUM',
    LC_ALL: 'xx_XX.ATRIUM',
  };
};

/** The files the hooks would run, each leaving its mark; and the step that gives every one its chance. */
async function hookFiles(dir: string) {
  await mkdir(path.join(dir, 'marks'), { recursive: true });
  await mkdir(path.join(dir, 'bin'), { recursive: true });
  await mkdir(path.join(dir, 'py'), { recursive: true });
  await mkdir(path.join(dir, 'perl'), { recursive: true });
  await writeFile(path.join(dir, 'hook.sh'), `touch ${dir}/marks/sourced\n`);
  await writeFile(path.join(dir, 'hook.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(`${dir}/marks/NODE_OPTIONS`)}, '')\n`);
  await writeFile(path.join(dir, 'hook.py'), `open(${JSON.stringify(`${dir}/marks/PYTHONSTARTUP`)}, 'w')\n`);
  await writeFile(path.join(dir, 'py', 'sitecustomize.py'), `open(${JSON.stringify(`${dir}/marks/PYTHONPATH`)}, 'w')\n`);
  await writeFile(path.join(dir, 'perl', 'AtriumHook.pm'), `package AtriumHook; open(my $f, '>', '${dir}/marks/PERL5OPT'); 1;\n`);
  await writeFile(path.join(dir, 'hook.rb'), `File.write(${JSON.stringify(`${dir}/marks/RUBYOPT`)}, '')\n`);
  await writeFile(path.join(dir, 'bin', 'id'), `#!/bin/sh\ntouch ${dir}/marks/PATH\n`, { mode: 0o755 });
}

/** Runs what each hook needs to fire, then prints the environment the step got. */
const PROBE = [
  'id >/dev/null 2>&1',
  'bash -c : ; sh -c :',
  'set -- $(echo a_b_c); echo "words=$#"',
  'command -v node >/dev/null && node -e 0',
  'command -v python3 >/dev/null && python3 -c 0 </dev/null',
  'command -v perl >/dev/null && perl -e 0',
  'command -v ruby >/dev/null && ruby -e 0',
  'command -v git >/dev/null && git --version >/dev/null',
  'echo "var=$ATRIUM_VAR_BASH_ENV"',
  'echo "param=$ATRIUM_VAR_GREETING"',
  'echo "version=$ATRIUM_VERSION step=$ATRIUM_STEP"',
  'echo "--- env"',
  'env | cut -d= -f1 | sort',
  'echo "--- end"',
].join('\n');

/** The names a step's environment may hold: the agent's own, the shell's bookkeeping, and ATRIUM_VAR_*. */
const ALLOWED = new Set([
  'PATH',
  'HOME',
  'LANG',
  'ATRIUM_TASK_ID',
  'ATRIUM_VERSION',
  'ATRIUM_STEP',
  'ATRIUM_RUN_DIR',
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
]);
const namesIn = (log: string) => {
  const block = log.split('--- env\n')[1]?.split('--- end')[0] ?? '';
  return block.split('\n').filter(Boolean);
};

describe('the agent names every variable of a step itself, whatever the server sends', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-hooks-'));
    await hookFiles(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const run = (command: Partial<AgentRunCommand> & Record<string, unknown>) =>
    new Promise<{ log: string; reason: string; exitCode: number | null }>((resolve, reject) => {
      const body = PROBE;
      let log = '';
      const step = new StepRun(
        {
          type: 'run',
          taskId: 1,
          stepRunId: ++runIds,
          stepIndex: 0,
          version: '1.0',
          name: 'probe',
          body,
          sha256: createHash('sha256').update(body).digest('hex'),
          timeoutSec: 60,
          variables: {},
          secrets: [],
          heartbeatMs: 1000,
          logCapBytes: 1024 * 1024,
          ...command,
        } as AgentRunCommand,
        dir,
        { chunk: (_seq, text) => (log += text), end: (result) => resolve({ log, reason: result.reason, exitCode: result.exitCode }) },
      );
      step.start().catch(reject);
    });

  it('sets a hostile server’s start-up variable names only as ATRIUM_VAR_{NAME}; each has no effect', async () => {
    const variables = hooks(dir);
    const result = await run({ variables: { ...variables, GREETING: 'world' } });
    expect(result.exitCode).toBe(0);
    expect(await readdir(path.join(dir, 'marks'))).toEqual([]);
    expect(result.log).toContain(`var=${dir}/hook.sh`);
    expect(result.log).toContain('param=world');
    expect(result.log).toContain('words=1');
    expect(result.log).not.toMatch(/ld\.so|preload|AT_PAGESZ|symbol=|Picked up|setlocale/);
    const names = namesIn(result.log);
    expect(names.filter((n) => !ALLOWED.has(n) && !n.startsWith('ATRIUM_VAR_'))).toEqual([]);
    for (const name of Object.keys(variables)) expect(names).toContain(`ATRIUM_VAR_${name}`);
  });

  it('ignores an environment map sent under any other field, and refuses a name that is not a plain identifier', async () => {
    const ignored = await run({ env: hooks(dir) });
    expect(ignored.exitCode).toBe(0);
    expect(await readdir(path.join(dir, 'marks'))).toEqual([]);
    expect(namesIn(ignored.log).filter((n) => !ALLOWED.has(n))).toEqual([]);
    for (const name of ['LD_PRELOAD=/x.so', 'A-B', '', '1ABC', 'ÄBC', 'A B', 'a'.repeat(65)]) {
      const refused = await run({ variables: { [name]: 'x' } });
      expect([refused.reason, refused.log]).toEqual(['error', expect.stringContaining('not a plain identifier: not run')]);
    }
    const nul = await run({ variables: { OK: 'a\0b' } });
    expect(nul.reason).toBe('error');
    expect(await readdir(path.join(dir, 'marks'))).toEqual([]);
  });
});

describe.each(engines)('release hardening on %s', (engine) => {
  let ctx: Ctx;
  let admin: Caller;
  let server: string;
  const agents: Agent[] = [];
  const dirs: string[] = [];

  const workDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-agent-'));
    dirs.push(dir);
    return dir;
  };
  /** An enrolled, approved agent running in this process, connected to the embedded broker. */
  const startAgent = async (labels: string[] = []) => {
    const enrol = (await admin.post('/api/release/client/enrol-token', {})).body.data.token as string;
    const agent = new Agent({ server, work: await workDir(), enrol, labels, graceMs: 1000, reconnectMs: 300 });
    agents.push(agent);
    const credentials = await agent.start();
    expect((await admin.put(`/api/release/client/${credentials.id}/approve`, {})).status).toBe(200);
    await until('agent online', async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'online');
    return { agent, credentials };
  };
  const ability = async (body: string) => {
    const created = await admin.post('/api/release/ability', { key: unique('ab'), name: 'Step', runtime: 'shell', body, timeoutSec: 120 });
    expect(created.status).toBe(200);
    expect((await admin.put(`/api/release/ability/${created.body.data.id}/publish`, {})).status).toBe(200);
    return created.body.data.id as number;
  };
  const finished = (id: number) =>
    until(`task ${id} finished`, async () => {
      const status = (await admin.get(`/api/release/task/${id}`)).body.data.status as string;
      return ['SUCCEEDED', 'FAILED', 'PARTIAL', 'CANCELED', 'LOST', 'TIMED_OUT'].includes(status) ? status : null;
    });
  const logOf = async (id: number) => (await admin.get(`/api/release/task/${id}/log?format=json`)).body.data.text as string;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', RELEASE_LEASE_MS: '60000' });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    admin = await signIn(ctx, 'admin', 'Admin@123456');
  });
  afterAll(async () => {
    for (const agent of agents) await agent.stop().catch(() => {});
    await ctx?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('takes any plain name for a variable or parameter; a real step sees it only as ATRIUM_VAR_{NAME}, with no effect', async () => {
    const dir = await workDir();
    await hookFiles(dir);
    const variables = hooks(dir);
    const { agent } = await startAgent(['hooks']);
    const project = (await admin.post('/api/release/project', { key: unique('p'), name: 'Hooks' })).body.data.id as number;
    const names = Object.entries(variables);
    const env = await admin.post('/api/release/env', {
      key: unique('e'),
      name: 'Hooks',
      // the secret ones travel the same way
      variables: names.map(([name, value], i) => ({ name, value, secret: i % 2 === 0 })),
    });
    expect(env.status).toBe(200);
    const params = { GREETING: 'world', LD_PRELOAD: `${dir}/param-preload.so`, BASH_ENV: `${dir}/hook.sh` };
    const process = await admin.post('/api/release/process', {
      name: 'Probe',
      projectId: project,
      steps: [{ abilityId: await ability(PROBE), params, labels: ['hooks'] }],
    });
    expect(process.status).toBe(200);
    const created = await admin.post('/api/release/task', {
      projectId: project,
      envId: env.body.data.id,
      processId: process.body.data.id,
      version: '7.1',
    });
    expect(created.status).toBe(200);
    expect(await finished(created.body.data.id)).toBe('SUCCEEDED');
    const log = await logOf(created.body.data.id);
    expect(await readdir(path.join(dir, 'marks'))).toEqual([]);
    expect(existsSync(path.join(dir, 'marks', 'sourced'))).toBe(false);
    expect(log).toContain('param=world');
    expect(log).toContain('version=7.1 step=1');
    expect(log).toContain('words=1');
    expect(log).not.toMatch(/ld\.so|preload|AT_PAGESZ|symbol=|Picked up|setlocale/);
    const seen = namesIn(log);
    expect(seen.filter((n) => !ALLOWED.has(n) && !n.startsWith('ATRIUM_VAR_'))).toEqual([]);
    for (const [name] of names) expect(seen).toContain(`ATRIUM_VAR_${name}`);
    await agent.stop();
  });

  it('refuses a variable or parameter name that is not a plain identifier, naming it', async () => {
    const bad = await admin.post('/api/release/env', {
      key: unique('e'),
      name: 'Bad',
      variables: [
        { name: 'OK', value: '1' },
        { name: 'LD_PRELOAD=/x.so', value: '1' },
      ],
    });
    expect([bad.status, bad.body.data.fields[0].field]).toEqual([400, 'variables.1.name']);
    const project = (await admin.post('/api/release/project', { key: unique('p'), name: 'Bad' })).body.data.id as number;
    const process = await admin.post('/api/release/process', {
      name: 'Bad',
      projectId: project,
      steps: [{ abilityId: await ability('echo x'), params: { 'A-B': 'x' } }],
    });
    expect(process.status).toBe(400);
    expect(process.body.data.fields[0].field).toMatch(/^steps\.0\.params/);
  });

  it('lets only a MAINTAINER of every project, or the tenant administrator, change protection, approvals, variables and processes; logs before and after, secrets masked', async () => {
    const SECRET_OLD = 'old-Secret-value-42';
    const SECRET_NEW = 'new-Secret-value-43';
    // the environment's two variables: the secret TOKEN (its value left out: kept as it is) and REGION
    const variables = (token?: string, region = 'north') => [
      { name: 'TOKEN', ...(token === undefined ? {} : { value: token }), secret: true },
      { name: 'REGION', value: region },
    ];
    const project = (await admin.post('/api/release/project', { key: unique('p'), name: 'Guarded' })).body.data.id as number;
    const other = (await admin.post('/api/release/project', { key: unique('p'), name: 'Other' })).body.data.id as number;
    const env = await admin.post('/api/release/env', {
      key: unique('e'),
      name: 'Production',
      protected: true,
      requiredApprovals: 2,
      variables: variables(SECRET_OLD),
    });
    expect(env.status).toBe(200);
    const envId = env.body.data.id as number;
    const abilityId = await ability('echo guarded');
    const process = await admin.post('/api/release/process', { name: 'Deploy', projectId: project, steps: [{ abilityId }] });
    expect(process.status).toBe(200);
    const processId = process.body.data.id as number;

    const { caller: editor, userId } = await arena(ctx).then((a) =>
      a.limited([
        'release:env:list',
        'release:env:query',
        'release:env:update',
        'release:process:list',
        'release:process:create',
        'release:process:update',
        'release:process:delete',
        'release:project:list',
        'release:project:update',
      ]),
    );
    const envNow = async () => (await admin.get(`/api/release/env/${envId}`)).body.data;
    const processNow = async () =>
      (await admin.get('/api/release/process?pageSize=200')).body.data.list.find((p: { id: number }) => p.id === processId);
    const before = { env: await envNow(), process: await processNow() };
    const keep = variables();
    const attempts = [
      () => editor.put(`/api/release/env/${envId}`, { name: 'Production', protected: false, requiredApprovals: 2, variables: keep }),
      () => editor.put(`/api/release/env/${envId}`, { name: 'Production', protected: true, requiredApprovals: 1, variables: keep }),
      () =>
        editor.put(`/api/release/env/${envId}`, {
          name: 'Production',
          protected: true,
          requiredApprovals: 2,
          variables: variables(undefined, 'south'),
        }),
      () =>
        editor.put(`/api/release/env/${envId}`, {
          name: 'Production',
          protected: true,
          requiredApprovals: 2,
          variables: variables('mine'),
        }),
      () => editor.put(`/api/release/process/${processId}`, { name: 'Deploy', steps: [{ abilityId, params: { X: '1' } }] }),
      () => editor.post('/api/release/process', { name: 'Mine', projectId: project, steps: [{ abilityId }] }),
      () => editor.del(`/api/release/process/${processId}`),
      () => editor.put(`/api/release/project/${project}`, { name: 'Guarded', keepReleases: 1 }),
    ];
    for (const attempt of attempts) expect((await attempt()).status).toBe(403);
    expect({ env: await envNow(), process: await processNow() }).toEqual(before);
    // a rename is the permission's
    const renamed = await editor.put(`/api/release/env/${envId}`, { name: 'Prod', protected: true, requiredApprovals: 2, variables: keep });
    expect(renamed.status).toBe(200);

    // a MAINTAINER of the project: its processes and settings, not yet an environment other projects use
    const grant = (projectId: number, grantEnv: number | null) =>
      admin.post('/api/release/user-project', { userId, projectId, envId: grantEnv, level: 'MAINTAINER' });
    expect((await grant(project, null)).status).toBe(200);
    expect((await attempts[4]!()).status).toBe(200);
    expect((await attempts[7]!()).status).toBe(200);
    expect((await attempts[0]!()).status).toBe(403);
    expect((await envNow()).protected).toBe(true);
    // MAINTAINER of it on every project: now the environment is theirs too
    expect((await grant(other, envId)).status).toBe(200);
    expect((await attempts[0]!()).status).toBe(403);
    for (const { id } of (await admin.get('/api/release/project?pageSize=200')).body.data.list as { id: number }[])
      if (id !== project && id !== other) expect((await grant(id, envId)).status).toBe(200);
    const lifted = await attempts[0]!();
    expect([lifted.status, lifted.body.data?.protected]).toEqual([200, false]);

    // the administrator replaces the secret: the log says it changed, never what it was or is
    const replaced = await admin.put(`/api/release/env/${envId}`, {
      name: 'Prod',
      protected: true,
      requiredApprovals: 2,
      variables: variables(SECRET_NEW),
    });
    expect(replaced.status).toBe(200);
    const log = (await admin.get('/api/system/operlog?module=release:env&pageSize=50')).body.data.list as {
      target: string;
      result: string;
      summary: { changed?: Record<string, { from: unknown; to: unknown }> } | null;
    }[];
    const mine = log.filter((entry) => entry.target === String(envId));
    expect(JSON.stringify(mine)).not.toContain(SECRET_OLD);
    expect(JSON.stringify(mine)).not.toContain(SECRET_NEW);
    expect(JSON.stringify(mine)).not.toContain('mine');
    // newest first: the administrator protected it again, after the maintainer had lifted it
    expect(mine.filter((e) => e.result === 'success' && e.summary?.changed?.protected).map((e) => e.summary?.changed?.protected)).toEqual([
      { from: false, to: true },
      { from: true, to: false },
    ]);
    const secret = mine.find((e) => e.result === 'success' && e.summary?.changed?.variables);
    expect(secret?.summary?.changed?.variables).toEqual({
      from: [
        { name: 'TOKEN', secret: true, value: '******' },
        { name: 'REGION', value: 'north', secret: false },
      ],
      to: [
        { name: 'TOKEN', secret: true, value: '******', changed: true },
        { name: 'REGION', value: 'north', secret: false },
      ],
    });
    expect(mine.filter((e) => e.result === 'failure').length).toBeGreaterThanOrEqual(4);
    const processLog = (await admin.get('/api/system/operlog?module=release:process&pageSize=50')).body.data.list as {
      target: string;
      result: string;
      summary: { changed?: Record<string, { from: unknown; to: unknown }> } | null;
    }[];
    const stepsChange = processLog.find((e) => e.target === String(processId) && e.result === 'success')?.summary?.changed?.steps;
    expect(stepsChange).toEqual({
      from: [expect.objectContaining({ abilityId, params: {} })],
      to: [expect.objectContaining({ abilityId, params: { X: '1' } })],
    });
  });

  it('sends a task’s live log and status only to those its REST route answers, and agent presence only to those who may list agents', async () => {
    const project = (await admin.post('/api/release/project', { key: unique('p'), name: 'Live' })).body.data.id as number;
    const envA = (await admin.post('/api/release/env', { key: unique('e'), name: 'A' })).body.data.id as number;
    const envB = (await admin.post('/api/release/env', { key: unique('e'), name: 'B' })).body.data.id as number;
    const processId = (
      await admin.post('/api/release/process', {
        name: 'Live',
        projectId: project,
        steps: [{ abilityId: await ability('echo LIVE-MARKER'), labels: ['live'] }],
      })
    ).body.data.id as number;
    const a = await arena(ctx);
    /** A user with these permissions, their grant, and a real MQTT client on their task topic. */
    const person = async (permissions: string[], grantEnv?: number) => {
      const { caller, userId, accountId } = await a.limited(permissions);
      if (grantEnv !== undefined)
        expect(
          (await admin.post('/api/release/user-project', { userId, projectId: project, envId: grantEnv, level: 'VIEWER' })).status,
        ).toBe(200);
      const { clientKey } = (await caller.post('/api/system/user/userInfoLogin', {})).body.data as { clientKey: string };
      const [account] = await ctx.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.accountId, accountId));
      const client = await connect(brokerUrl(ctx.app.realtime.port), { accountId, clientKey }, caller.token);
      clients.push(client);
      await client.subscribeAsync(realtimeTopic('task', clientKey), { qos: 1 });
      return { caller, accountRef: (account as { id: number }).id, inbox: collect(client) };
    };
    const clients: MqttClient[] = [];
    const onA = await person([], envA);
    const onB = await person([], envB);
    const lister = await person(['release:client:list']);
    /** Published after everything else: once it arrived, whatever was sent to this account before has too. */
    const drained = async (who: typeof onA) => {
      const before = who.inbox.messages.length;
      await ctx.app.publish({ accountRefs: [who.accountRef], kind: 'task', payload: { domain: 'test', event: 'sentinel' } });
      await who.inbox.waitFor(before + 1);
      return who.inbox.messages.map((m) => m.body);
    };

    const { agent, credentials } = await startAgent(['live']);
    const created = await admin.post('/api/release/task', { projectId: project, envId: envA, processId, version: '1' });
    expect(created.status).toBe(200);
    const taskId = created.body.data.id as number;
    expect(await finished(taskId)).toBe('SUCCEEDED');
    // the REST rule: VIEWER on the environment sees the task, VIEWER on the project's other environment does not
    expect((await onA.caller.get(`/api/release/task/${taskId}`)).status).toBe(200);
    expect((await onB.caller.get(`/api/release/task/${taskId}`)).status).toBe(404);
    const ofTask = (bodies: Record<string, unknown>[]) => bodies.filter((b) => b.domain === 'release' && b.taskId === taskId);
    await until('the viewer got the log and the end', async () =>
      ofTask(onA.inbox.messages.map((m) => m.body)).some((b) => b.event === 'status' && b.status === 'SUCCEEDED'),
    );
    expect(ofTask(onA.inbox.messages.map((m) => m.body)).some((b) => b.event === 'log' && String(b.text).includes('LIVE-MARKER'))).toBe(
      true,
    );
    expect(ofTask(await drained(onB))).toEqual([]);
    expect(ofTask(await drained(lister))).toEqual([]);

    // presence: to whoever may list agents, not to everyone in the tenant
    await agent.stop();
    await until('offline shown', async () => (await admin.get(`/api/release/client/${credentials.id}`)).body.data.presence === 'offline');
    const presence = (bodies: Record<string, unknown>[]) => bodies.filter((b) => b.event === 'presence' && b.clientId === credentials.id);
    await until('the lister got the presence', async () =>
      presence(lister.inbox.messages.map((m) => m.body)).some((b) => b.presence === 'offline'),
    );
    expect((await lister.caller.get('/api/release/client')).status).toBe(200);
    expect((await onA.caller.get('/api/release/client')).status).toBe(403);
    expect(presence(await drained(onA))).toEqual([]);
    expect(presence(await drained(onB))).toEqual([]);
    for (const client of clients) await client.endAsync(true);
  });
});
