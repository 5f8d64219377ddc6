import { createHash, randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS } from '@atrium/contracts';
import type { AgentCommand, AgentHeartbeat, AgentLogChunk, AgentRunCommand, AgentStatus, TaskStatus } from '@atrium/contracts/release';
import { maskSecrets } from '@atrium/contracts/release-mask';
import { and, asc, count, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Tx, withTenant } from '../../db/client';
import {
  type ReleaseVariable,
  releaseClients,
  releaseEnvs,
  releaseLogChunks,
  releaseStepRuns,
  releaseTasks,
  tenants,
} from '../../db/schema';
import { tenantJoin } from '../../db/tenant-join';
import { secretContext } from '../../secrets/at-rest';
import type { AgentBridge } from '../realtime/broker';
import { type AgentIdentity, type AgentUpKind, agentDownTopic } from '../realtime/rules';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const newSecret = () => randomBytes(32).toString('base64url');

type TaskRow = typeof releaseTasks.$inferSelect;

/** The agents a task runs on (a task started before hosts were recorded: its one agent). */
const hostsOf = (task: TaskRow): number[] => (task.targets.length > 0 ? task.targets : task.clientId ? [task.clientId] : []);
type StepResult = { exitCode: number | null; reason: 'exit' | 'canceled' | 'timeout' | 'error' | 'lost' };

const ACTIVE: TaskStatus[] = ['RUNNING', 'CANCELLING'];

export type EngineOptions = {
  /**
   * How long a running task's lock lives without a heartbeat. The task is LOST only when it stays silent
   * for as long again (the grace): a heartbeat the agent sent in time but this server read late — a busy
   * machine, a slow database — still keeps the task.
   */
  leaseMs: number;
  /** Log bytes kept per step run; the rest is cut with a visible line. */
  logCapBytes: number;
};

/**
 * Runs tasks on agents: picks the next queued task of a project and environment when none runs,
 * sends its steps one at a time to an agent, stores what the agent reports (statuses, log chunks,
 * heartbeats) and declares a task LOST when its lease runs out. Every transition is a
 * compare-and-set on the task's status; the database is the source of truth, the agent only reports.
 */
export class ReleaseEngine implements AgentBridge {
  private sweeper?: NodeJS.Timeout;
  /** When the last sweep ran, in this process's monotonic time (not the app clock, which tests move). */
  private lastSweep = 0;

  constructor(
    private readonly app: FastifyInstance,
    readonly options: EngineOptions,
  ) {}

  /** How often the sweeper looks for silent tasks and queued work. */
  private get every() {
    return Math.max(250, Math.min(5000, Math.floor(this.options.leaseMs / 3)));
  }

  start() {
    this.sweeper = setInterval(
      () => void this.sweep().catch((err: unknown) => this.app.log.warn({ err }, 'release sweep failed')),
      this.every,
    );
    this.sweeper.unref();
  }

  stop() {
    clearInterval(this.sweeper);
  }

  private now() {
    return this.app.clock.now();
  }

  private leaseEnd() {
    return new Date(this.now().getTime() + this.options.leaseMs);
  }

  private db() {
    return this.app.database.db;
  }

  // ---- the broker's side --------------------------------------------------------------------------

  async authenticate(agent: AgentIdentity, secret: string): Promise<boolean> {
    const [row] = await withTenant(this.db(), agent.tenantId, (tx) =>
      tx
        .select({ secretHash: releaseClients.secretHash })
        .from(releaseClients)
        .innerJoin(tenants, eq(tenants.id, releaseClients.tenantId))
        .where(and(eq(releaseClients.id, agent.clientId), this.activeNow())),
    ).catch(() => []);
    // a pending (not yet approved), disabled or revoked agent, or one of a disabled or expired tenant, may
    // not connect: it retries until approved
    return !!row && row.secretHash === sha256(secret);
  }

  /** The agent is ACTIVE and its tenant enabled and not expired (for a query joining release_clients and tenants). */
  private activeNow(): SQL {
    return and(
      eq(releaseClients.status, 'ACTIVE'),
      eq(tenants.status, '0'),
      or(isNull(tenants.expireTime), sql`${tenants.expireTime} > ${this.now()}`),
    ) as SQL;
  }

  /** Whether an agent is ACTIVE now (approved, not disabled or revoked). */
  async isActive(agent: AgentIdentity): Promise<boolean> {
    return withTenant(this.db(), agent.tenantId, (tx) => this.activeIn(tx, agent.clientId));
  }

  /** Whether the client is ACTIVE (in an open tenant), read in the transaction that acts on what it said. */
  private async activeIn(tx: Tx, clientId: number): Promise<boolean> {
    const [row] = await tx
      .select({ id: releaseClients.id })
      .from(releaseClients)
      .innerJoin(tenants, eq(tenants.id, releaseClients.tenantId))
      .where(and(eq(releaseClients.id, clientId), this.activeNow()));
    return !!row;
  }

  /**
   * An agent was disabled or revoked: its connections are closed at once (every instance, or through
   * EMQX's REST API) and the steps it was running are LOST, so its tasks move on without it.
   */
  async clientEnded(tenantId: number, clientId: number): Promise<void> {
    await this.app.realtime
      .endIdentity({ kind: 'agent', tenantId, clientId })
      .catch((err: unknown) => this.app.log.warn({ err, clientId }, 'could not disconnect an ended agent'));
    const running = await withTenant(this.db(), tenantId, (tx) =>
      tx
        .select({ id: releaseStepRuns.id })
        .from(releaseStepRuns)
        .where(and(eq(releaseStepRuns.clientId, clientId), eq(releaseStepRuns.status, 'RUNNING'))),
    );
    for (const run of running) await this.finishStep(tenantId, run.id, clientId, { exitCode: null, reason: 'lost' });
  }

  /** Presence changes of one agent are stored in the order they happened (a reconnect closes the old connection late). */
  private readonly presence = new Map<string, Promise<unknown>>();

  onPresence(agent: AgentIdentity, online: boolean): void {
    const key = `${agent.tenantId}:${agent.clientId}`;
    const previous = this.presence.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.storePresence(agent, online));
    this.presence.set(key, next);
    void next.finally(() => {
      if (this.presence.get(key) === next) this.presence.delete(key);
    });
  }

  private storePresence(agent: AgentIdentity, online: boolean): Promise<void> {
    return withTenant(this.db(), agent.tenantId, (tx) =>
      tx
        .update(releaseClients)
        .set({ presence: online ? 'online' : 'offline', lastSeenAt: this.now() })
        .where(eq(releaseClients.id, agent.clientId)),
    )
      .then(() => this.publishClient(agent.tenantId, agent.clientId, online))
      .catch((err: unknown) => this.app.log.warn({ err }, 'agent presence not stored'));
  }

  async onMessage(agent: AgentIdentity, kind: AgentUpKind, payload: Buffer): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch {
      return; // not ours to fail on: a malformed message is dropped
    }
    if (!message || typeof message !== 'object') return;
    switch (kind) {
      case 'hb':
        return this.heartbeat(agent, message as AgentHeartbeat);
      case 'hello':
        return this.hello(agent, message as AgentHeartbeat);
      case 'log':
        return this.log(agent, message as AgentLogChunk);
      case 'status':
        return this.status(agent, message as AgentStatus);
      case 'presence':
        if ((message as { online?: unknown }).online === false) this.onPresence(agent, false);
        return;
    }
  }

  private async heartbeat(agent: AgentIdentity, _beat: AgentHeartbeat) {
    await withTenant(this.db(), agent.tenantId, async (tx) => {
      if (!(await this.activeIn(tx, agent.clientId))) return;
      await tx.update(releaseClients).set({ lastSeenAt: this.now(), presence: 'online' }).where(eq(releaseClients.id, agent.clientId));
      await tx
        .update(releaseTasks)
        .set({ leaseUntil: this.leaseEnd() })
        .where(and(inArray(releaseTasks.status, ACTIVE), sql`${releaseTasks.targets} @> ${JSON.stringify([agent.clientId])}::jsonb`));
    });
  }

  /**
   * On (re)connect the agent lists every run it knows. A run the server thinks is running that the agent
   * took (its "started" came) but no longer knows is LOST: the agent restarted and its step went with it.
   * A run the agent never said it took is sent again instead: its command may still have been on the way
   * when the agent wrote its hello, or it was published before the agent's subscription stood (the agent
   * runs a repeated command once).
   */
  private async hello(agent: AgentIdentity, hello: AgentHeartbeat) {
    const runs = Array.isArray(hello.runs) ? hello.runs.filter((r) => Number.isSafeInteger(r)) : [];
    const found = await withTenant(this.db(), agent.tenantId, async (tx) => {
      if (!(await this.activeIn(tx, agent.clientId))) return null;
      await tx
        .update(releaseClients)
        .set({
          lastSeenAt: this.now(),
          presence: 'online',
          ...(typeof hello.agentVersion === 'string' ? { agentVersion: hello.agentVersion.slice(0, 32) } : {}),
        })
        .where(eq(releaseClients.id, agent.clientId));
      const running = await tx
        .select({
          id: releaseStepRuns.id,
          taskId: releaseStepRuns.taskId,
          stepIndex: releaseStepRuns.stepIndex,
          acceptedAt: releaseStepRuns.acceptedAt,
        })
        .from(releaseStepRuns)
        .where(and(eq(releaseStepRuns.clientId, agent.clientId), eq(releaseStepRuns.status, 'RUNNING')));
      const unknown = running.filter((run) => !runs.includes(run.id));
      const resend: AgentRunCommand[] = [];
      for (const run of unknown.filter((r) => r.acceptedAt === null)) {
        const [task] = await tx.select().from(releaseTasks).where(eq(releaseTasks.id, run.taskId));
        if (task && ACTIVE.includes(task.status as TaskStatus) && task.status !== 'CANCELLING')
          resend.push(await this.runCommand(tx, task, run.stepIndex, run.id));
      }
      return { lost: unknown.filter((r) => r.acceptedAt !== null), resend };
    });
    if (!found) return;
    for (const run of found.lost) await this.finishStep(agent.tenantId, run.id, agent.clientId, { exitCode: null, reason: 'lost' });
    for (const command of found.resend) await this.send(agent, command);
    await this.heartbeat(agent, hello);
    await this.dispatchTenant(agent.tenantId);
  }

  private async log(agent: AgentIdentity, chunk: AgentLogChunk) {
    if (!Number.isSafeInteger(chunk.stepRunId) || !Number.isSafeInteger(chunk.seq) || chunk.seq < 0 || typeof chunk.text !== 'string')
      return;
    const stored = await withTenant(this.db(), agent.tenantId, async (tx) => {
      if (!(await this.activeIn(tx, agent.clientId))) return null;
      const [run] = await tx
        .select({
          id: releaseStepRuns.id,
          taskId: releaseStepRuns.taskId,
          logBytes: releaseStepRuns.logBytes,
          truncated: releaseStepRuns.truncated,
        })
        .from(releaseStepRuns)
        .where(and(eq(releaseStepRuns.id, chunk.stepRunId), eq(releaseStepRuns.clientId, agent.clientId)));
      if (!run || run.truncated) return null;
      const secrets = await this.secretsOfTask(tx, run.taskId);
      // masked again here: an agent that missed a value (or an old agent) does not leak it into the store
      let text = maskSecrets(chunk.text, secrets);
      let truncated = false;
      const room = this.options.logCapBytes - run.logBytes;
      if (Buffer.byteLength(text) > room) {
        text = `${Buffer.from(text)
          .subarray(0, Math.max(0, room))
          .toString('utf8')
          .replace(/\uFFFD+$/, '')}\n[log truncated: over ${this.options.logCapBytes} bytes]\n`;
        truncated = true;
      }
      const inserted = await tx
        .insert(releaseLogChunks)
        .values({ tenantId: agent.tenantId, stepRunId: run.id, seq: chunk.seq, taskId: run.taskId, text })
        .onConflictDoNothing()
        .returning({ seq: releaseLogChunks.seq });
      if (inserted.length === 0) return null;
      await tx
        .update(releaseStepRuns)
        .set({ logBytes: sql`${releaseStepRuns.logBytes} + ${Buffer.byteLength(text)}`, truncated })
        .where(eq(releaseStepRuns.id, run.id));
      return { taskId: run.taskId, text };
    });
    if (stored)
      void this.publishTask(agent.tenantId, stored.taskId, { event: 'log', stepRunId: chunk.stepRunId, seq: chunk.seq, text: stored.text });
  }

  private async status(agent: AgentIdentity, status: AgentStatus) {
    if (!Number.isSafeInteger(status.stepRunId)) return;
    if (status.state === 'started') return this.accepted(agent, status.stepRunId);
    if (status.state !== 'finished') return;
    const reason = ['exit', 'canceled', 'timeout', 'error'].includes(status.reason) ? status.reason : 'error';
    const exitCode = Number.isSafeInteger(status.exitCode) ? status.exitCode : null;
    await this.finishStep(agent.tenantId, status.stepRunId, agent.clientId, { exitCode, reason }, true);
  }

  /** The agent took a run: from now on, a hello without it means the agent lost it. */
  private async accepted(agent: AgentIdentity, stepRunId: number) {
    await withTenant(this.db(), agent.tenantId, async (tx) => {
      if (!(await this.activeIn(tx, agent.clientId))) return;
      await tx
        .update(releaseStepRuns)
        .set({ acceptedAt: this.now() })
        .where(and(eq(releaseStepRuns.id, stepRunId), eq(releaseStepRuns.clientId, agent.clientId), isNull(releaseStepRuns.acceptedAt)));
    });
  }

  // ---- transitions --------------------------------------------------------------------------------

  /** A secret variable's value, opened (stored sealed with the tenant's context). */
  private openSecret(tenantId: number, value: string): string {
    return this.app.secrets.open(value, secretContext.releaseEnv(tenantId));
  }

  private async secretsOfTask(tx: Tx, taskId: number): Promise<string[]> {
    const [row] = await tx
      .select({ variables: releaseEnvs.variables, tenantId: releaseTasks.tenantId })
      .from(releaseTasks)
      .innerJoin(releaseEnvs, tenantJoin(releaseEnvs.id, releaseTasks.envId))
      .where(eq(releaseTasks.id, taskId));
    return (row?.variables ?? []).filter((v) => v.secret).map((v) => this.openSecret(row?.tenantId ?? 0, v.value));
  }

  /** The command that runs step `index` of a task, after inserting its step run. */
  private async startStep(tx: Tx, task: TaskRow, index: number, clientId: number): Promise<AgentRunCommand> {
    if (!task.steps[index]) throw new Error('no such step');
    const [run] = await tx
      .insert(releaseStepRuns)
      .values({ tenantId: task.tenantId, taskId: task.id, stepIndex: index, clientId, startedAt: this.now() })
      .returning({ id: releaseStepRuns.id });
    return this.runCommand(tx, task, index, (run as { id: number }).id);
  }

  /** The command that runs step run `stepRunId` (step `index` of a task): sent when it starts, and again if the agent did not take it. */
  private async runCommand(tx: Tx, task: TaskRow, index: number, stepRunId: number): Promise<AgentRunCommand> {
    const step = task.steps[index];
    if (!step) throw new Error('no such step');
    const [env] = await tx.select({ variables: releaseEnvs.variables }).from(releaseEnvs).where(eq(releaseEnvs.id, task.envId));
    const variables: ReleaseVariable[] = (env?.variables ?? []).map((v) =>
      v.secret ? { ...v, value: this.openSecret(task.tenantId, v.value) } : v,
    );
    // by name without the prefix: the agent sets each as ATRIUM_VAR_{name}; a parameter wins over a variable
    const named: Record<string, string> = {};
    for (const variable of variables) named[variable.name] = variable.value;
    for (const [name, value] of Object.entries(step.params)) named[name] = value;
    return {
      type: 'run',
      taskId: task.id,
      stepRunId,
      stepIndex: index,
      version: task.version,
      name: step.name,
      body: step.body,
      sha256: step.sha256,
      timeoutSec: step.timeoutSec,
      variables: named,
      secrets: variables.filter((v) => v.secret).map((v) => v.value),
      heartbeatMs: Math.max(200, Math.floor(this.options.leaseMs / 3)),
      logCapBytes: this.options.logCapBytes,
    };
  }

  /**
   * Records a step's end on one host and moves that host on: its next step, a retry, or done. When the
   * last host is done the task ends: SUCCEEDED when every host got through every step, PARTIAL when
   * some did, otherwise the one host's outcome (FAILED, TIMED_OUT, LOST) or FAILED. The task row is
   * locked first, so two hosts finishing at once are counted one after the other.
   */
  async finishStep(tenantId: number, stepRunId: number, clientId: number, result: StepResult, reported = false): Promise<void> {
    const outcome = await withTenant(this.db(), tenantId, async (tx) => {
      // what an agent reports counts only while it is ACTIVE
      if (reported && !(await this.activeIn(tx, clientId))) return null;
      const stepStatus =
        result.reason === 'lost'
          ? 'LOST'
          : result.reason === 'canceled'
            ? 'CANCELED'
            : result.reason === 'timeout'
              ? 'TIMED_OUT'
              : result.exitCode === 0
                ? 'SUCCEEDED'
                : 'FAILED';
      const [owner] = await tx
        .select({ taskId: releaseStepRuns.taskId })
        .from(releaseStepRuns)
        .where(and(eq(releaseStepRuns.id, stepRunId), eq(releaseStepRuns.clientId, clientId)));
      if (!owner) return null;
      const [task] = await tx.select().from(releaseTasks).where(eq(releaseTasks.id, owner.taskId)).for('update');
      const [run] = await tx
        .update(releaseStepRuns)
        .set({ status: stepStatus, exitCode: result.exitCode, finishedAt: this.now() })
        .where(and(eq(releaseStepRuns.id, stepRunId), eq(releaseStepRuns.clientId, clientId), eq(releaseStepRuns.status, 'RUNNING')))
        .returning();
      if (!run) return null; // reported twice, or already declared lost
      if (!task || !ACTIVE.includes(task.status as TaskStatus)) return null;
      let next: AgentRunCommand | null = null;
      if (task.status !== 'CANCELLING') {
        if (stepStatus === 'SUCCEEDED' && run.stepIndex + 1 < task.steps.length) {
          next = await this.startStep(tx, task, run.stepIndex + 1, clientId);
        } else if ((stepStatus === 'FAILED' || stepStatus === 'TIMED_OUT') && (await this.mayRetry(tx, task, run.stepIndex, clientId))) {
          // the step's own retries: the same step again on the same host, a new step run with its own log
          next = await this.startStep(tx, task, run.stepIndex, clientId);
        }
      }
      const currentStep = Math.max(task.currentStep, next ? next.stepIndex : run.stepIndex);
      const end = next ? null : await this.endOf(tx, task);
      const [moved] = await tx
        .update(releaseTasks)
        .set(
          end
            ? { status: end.status, currentStep, exitCode: end.exitCode, leaseUntil: null, finishedAt: this.now(), updateTime: this.now() }
            : { currentStep, leaseUntil: this.leaseEnd(), updateTime: this.now() },
        )
        .where(and(eq(releaseTasks.id, task.id), eq(releaseTasks.status, task.status)))
        .returning();
      return moved ? { task: moved, next, finished: Boolean(end) } : null;
    });
    if (!outcome) return;
    if (outcome.next) await this.send({ tenantId, clientId }, outcome.next);
    void this.publishTask(tenantId, outcome.task.id, { event: 'status', status: outcome.task.status, exitCode: outcome.task.exitCode });
    if (outcome.finished) await this.dispatch(tenantId, outcome.task.projectId, outcome.task.envId);
  }

  /**
   * The task's end when none of its hosts has anything left to run, else null. A host is done when its
   * latest step run has finished and is not a success with steps after it (or the task is cancelling).
   */
  private async endOf(tx: Tx, task: TaskRow): Promise<{ status: TaskStatus; exitCode: number | null } | null> {
    const hosts = hostsOf(task);
    const runs = await tx
      .select({
        clientId: releaseStepRuns.clientId,
        stepIndex: releaseStepRuns.stepIndex,
        status: releaseStepRuns.status,
        exitCode: releaseStepRuns.exitCode,
      })
      .from(releaseStepRuns)
      .where(eq(releaseStepRuns.taskId, task.id))
      .orderBy(asc(releaseStepRuns.id));
    const last = new Map<number, (typeof runs)[number]>();
    for (const run of runs) last.set(run.clientId, run);
    const lastStep = task.steps.length - 1;
    const outcomes: { host: number; status: string; exitCode: number | null; through: boolean }[] = [];
    for (const host of hosts) {
      const run = last.get(host);
      if (!run || run.status === 'RUNNING') return null;
      const through = run.status === 'SUCCEEDED' && run.stepIndex === lastStep;
      if (run.status === 'SUCCEEDED' && !through && task.status !== 'CANCELLING') return null;
      outcomes.push({ host, status: run.status, exitCode: run.exitCode, through });
    }
    if (task.status === 'CANCELLING') return { status: 'CANCELED', exitCode: outcomes.find((o) => !o.through)?.exitCode ?? null };
    const failed = outcomes.filter((o) => !o.through);
    if (failed.length === 0) return { status: 'SUCCEEDED', exitCode: 0 };
    const first = failed[0] as (typeof failed)[number];
    if (failed.length < outcomes.length) return { status: 'PARTIAL', exitCode: first.exitCode };
    return { status: outcomes.length === 1 ? (first.status as TaskStatus) : 'FAILED', exitCode: first.exitCode };
  }

  /** Whether a failed step has retries left on a host: it has run there fewer times than once plus its `retries`. */
  private async mayRetry(tx: Tx, task: TaskRow, index: number, clientId: number): Promise<boolean> {
    const retries = task.steps[index]?.retries ?? 0;
    if (retries <= 0) return false;
    const [row] = await tx
      .select({ runs: count() })
      .from(releaseStepRuns)
      .where(and(eq(releaseStepRuns.taskId, task.id), eq(releaseStepRuns.stepIndex, index), eq(releaseStepRuns.clientId, clientId)));
    return (row?.runs ?? 0) <= retries;
  }

  /** Starts the oldest queued task of a project and environment when none runs there and an agent can take it. */
  async dispatch(tenantId: number, projectId: number, envId: number): Promise<void> {
    const started = await withTenant(this.db(), tenantId, async (tx) => {
      const [busy] = await tx
        .select({ id: releaseTasks.id })
        .from(releaseTasks)
        .where(and(eq(releaseTasks.projectId, projectId), eq(releaseTasks.envId, envId), inArray(releaseTasks.status, ACTIVE)));
      if (busy) return null;
      const [task] = await tx
        .select()
        .from(releaseTasks)
        .where(and(eq(releaseTasks.projectId, projectId), eq(releaseTasks.envId, envId), eq(releaseTasks.status, 'QUEUED')))
        .orderBy(asc(releaseTasks.id))
        .limit(1);
      if (!task) return null;
      const targets = await this.pickClients(tx, task);
      if (targets.length === 0) return null;
      const [moved] = await tx
        .update(releaseTasks)
        .set({
          status: 'RUNNING',
          clientId: targets[0],
          targets,
          currentStep: 0,
          leaseUntil: this.leaseEnd(),
          startedAt: this.now(),
          updateTime: this.now(),
        })
        .where(and(eq(releaseTasks.id, task.id), eq(releaseTasks.status, 'QUEUED')))
        .returning();
      if (!moved) return null;
      const commands: { clientId: number; command: AgentRunCommand }[] = [];
      for (const clientId of targets) commands.push({ clientId, command: await this.startStep(tx, moved, 0, clientId) });
      return { task: moved, commands };
    }).catch((error: unknown) => {
      // another dispatch took the lock first (the unique index on running tasks): nothing to do
      if (isUniqueViolation(error)) return null;
      throw error;
    });
    if (!started) return;
    for (const { clientId, command } of started.commands) await this.send({ tenantId, clientId }, command);
    void this.publishTask(tenantId, started.task.id, { event: 'status', status: 'RUNNING', exitCode: null });
  }

  /**
   * The hosts a task runs on: every approved, online agent whose labels cover the task's (a retry of
   * failed hosts: those of them only). When one of them has no room for another run, the task waits
   * for it rather than deploying to fewer hosts than it should.
   */
  private async pickClients(tx: Tx, task: TaskRow): Promise<number[]> {
    const wanted = new Set(task.steps.flatMap((s) => s.labels));
    const candidates = await tx
      .select({ id: releaseClients.id, labels: releaseClients.labels, maxConcurrency: releaseClients.maxConcurrency })
      .from(releaseClients)
      .where(and(eq(releaseClients.status, 'ACTIVE'), eq(releaseClients.presence, 'online')))
      .orderBy(asc(releaseClients.id));
    const fitting = candidates.filter(
      (client) =>
        [...wanted].every((label) => client.labels.includes(label)) && (!task.onlyClients || task.onlyClients.includes(client.id)),
    );
    for (const client of fitting) {
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(releaseStepRuns)
        .where(and(eq(releaseStepRuns.clientId, client.id), eq(releaseStepRuns.status, 'RUNNING')));
      if (n >= client.maxConcurrency) return [];
    }
    return fitting.map((client) => client.id);
  }

  /** Every project and environment of a tenant with queued work. */
  async dispatchTenant(tenantId: number): Promise<void> {
    const queues = await withTenant(this.db(), tenantId, (tx) =>
      tx
        .selectDistinct({ projectId: releaseTasks.projectId, envId: releaseTasks.envId })
        .from(releaseTasks)
        .where(eq(releaseTasks.status, 'QUEUED')),
    );
    for (const queue of queues) await this.dispatch(tenantId, queue.projectId, queue.envId);
  }

  /**
   * A host silent for a lease (no heartbeat: the agent died or lost its network) has its running step
   * LOST, which ends its part of the task; a task whose lease ran out altogether is LOST and frees its lock.
   */
  async sweep(): Promise<void> {
    // A sweep that comes much later than its interval means this process did not run for a while (a
    // blocked event loop, a starved machine): the heartbeats that arrived meanwhile are still queued
    // behind this timer, so this round declares nothing lost and the next one judges with them read.
    const ranAt = performance.now();
    const starved = this.lastSweep > 0 && ranAt - this.lastSweep > 2 * this.every;
    this.lastSweep = ranAt;
    const ids = await this.app.database.db.select({ id: tenants.id }).from(tenants);
    const graceMs = this.options.leaseMs;
    const silentSince = new Date(this.now().getTime() - this.options.leaseMs - graceMs);
    const expiredBefore = new Date(this.now().getTime() - graceMs);
    for (const { id: tenantId } of ids) {
      if (starved) {
        await this.dispatchTenant(tenantId);
        continue;
      }
      const silent = await withTenant(this.db(), tenantId, (tx) =>
        tx
          .select({ id: releaseStepRuns.id, clientId: releaseStepRuns.clientId })
          .from(releaseStepRuns)
          .innerJoin(releaseClients, tenantJoin(releaseClients.id, releaseStepRuns.clientId))
          .where(
            and(
              eq(releaseStepRuns.status, 'RUNNING'),
              lt(releaseStepRuns.startedAt, silentSince),
              or(isNull(releaseClients.lastSeenAt), lt(releaseClients.lastSeenAt, silentSince)),
            ),
          ),
      );
      for (const run of silent) await this.finishStep(tenantId, run.id, run.clientId, { exitCode: null, reason: 'lost' });
      const lost = await withTenant(this.db(), tenantId, async (tx) => {
        const expired = await tx
          .update(releaseTasks)
          .set({ status: 'LOST', leaseUntil: null, finishedAt: this.now(), updateTime: this.now() })
          .where(and(inArray(releaseTasks.status, ACTIVE), lt(releaseTasks.leaseUntil, expiredBefore)))
          .returning({ id: releaseTasks.id, projectId: releaseTasks.projectId, envId: releaseTasks.envId });
        if (expired.length > 0)
          await tx
            .update(releaseStepRuns)
            .set({ status: 'LOST', finishedAt: this.now() })
            .where(
              and(
                inArray(
                  releaseStepRuns.taskId,
                  expired.map((t) => t.id),
                ),
                eq(releaseStepRuns.status, 'RUNNING'),
              ),
            );
        return expired;
      });
      for (const task of lost) void this.publishTask(tenantId, task.id, { event: 'status', status: 'LOST', exitCode: null });
      await this.dispatchTenant(tenantId);
    }
  }

  /**
   * Sends a command to one agent's `down` topic, if it is ACTIVE now: a run command carries the
   * environment's secret values, which a disabled or revoked agent never gets. False when not sent.
   */
  async send(agent: AgentIdentity, command: AgentCommand): Promise<boolean> {
    if (!(await this.isActive(agent).catch(() => false))) return false;
    return this.app.realtime.publishRaw(agentDownTopic(agent), JSON.stringify(command));
  }

  // ---- live updates to browsers -------------------------------------------------------------------

  /**
   * Accounts that may see a task's live log and status: exactly those `GET /release/task/:id` answers in
   * the task's tenant — enabled members who are its administrator (super admin, `*:*:*` or the admin
   * role: `isTenantAdmin`) or hold a grant on the task's project for all environments or for its one
   * (`levelOf`). The creator gets nothing more than the rule gives them.
   */
  private async watchersOf(tenantId: number, taskId: number): Promise<number[]> {
    return withTenant(this.db(), tenantId, async (tx) => {
      const [task] = await tx
        .select({ projectId: releaseTasks.projectId, envId: releaseTasks.envId })
        .from(releaseTasks)
        .where(eq(releaseTasks.id, taskId));
      if (!task) return [];
      const result = await tx.execute(sql`
        select distinct tu.account_ref::int as ref
          from tenant_users tu
          join accounts a on a.id = tu.account_ref
         where tu.status = '0'
           and (a.super_admin
                or ${holdsRole(sql`(r.code = 'admin' or m.permission = ${ALL_PERMISSIONS})`)}
                or exists (select 1 from release_user_projects g
                            where g.tenant_id = tu.tenant_id and g.user_id = tu.id and g.project_id = ${task.projectId}
                              and (g.env_id is null or g.env_id = ${task.envId})))`);
      return refsOf(result);
    });
  }

  /** Accounts that may see the client list (`release:client:list`, as `can()` decides it): who gets presence. */
  private async clientWatchers(tenantId: number): Promise<number[]> {
    return withTenant(this.db(), tenantId, async (tx) => {
      const result = await tx.execute(sql`
        select distinct tu.account_ref::int as ref
          from tenant_users tu
          join accounts a on a.id = tu.account_ref
         where tu.status = '0'
           and (a.super_admin or ${holdsRole(sql`m.permission in (${ALL_PERMISSIONS}, ${CLIENT_LIST})`)})`);
      return refsOf(result);
    });
  }

  async publishTask(tenantId: number, taskId: number, payload: Record<string, unknown>): Promise<void> {
    try {
      const accountRefs = await this.watchersOf(tenantId, taskId);
      await this.app.publish({ accountRefs, kind: 'task', payload: { domain: 'release', taskId, ...payload } });
    } catch (err) {
      this.app.log.debug({ err }, 'release event not published');
    }
  }

  private async publishClient(tenantId: number, clientId: number, online: boolean) {
    await this.app.publish({
      accountRefs: await this.clientWatchers(tenantId),
      kind: 'task',
      payload: { domain: 'release', event: 'presence', clientId, presence: online ? 'online' : 'offline' },
    });
  }
}

/** The permission that shows agents and their presence (GET /api/release/client). */
const CLIENT_LIST = 'release:client:list';

/** `exists` an enabled role of member `tu` (through its enabled menus) for which `condition` holds. */
const holdsRole = (condition: SQL) => sql`exists (
  select 1 from user_roles ur
    join roles r on r.tenant_id = ur.tenant_id and r.id = ur.role_id and r.status = '0'
    left join role_menus rm on rm.tenant_id = r.tenant_id and rm.role_id = r.id
    left join menus m on m.id = rm.menu_id and m.status = '0'
   where ur.tenant_id = tu.tenant_id and ur.user_id = tu.id and ${condition})`;

const refsOf = (result: unknown): number[] => (result as { rows: { ref: number | string }[] }).rows.map((row) => Number(row.ref));

function isUniqueViolation(error: unknown): boolean {
  let e = error as { code?: string; cause?: unknown } | undefined;
  while (e) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}
