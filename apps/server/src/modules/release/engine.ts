import { createHash, randomBytes } from 'node:crypto';
import type { AgentCommand, AgentHeartbeat, AgentLogChunk, AgentRunCommand, AgentStatus, TaskStatus } from '@atrium/contracts/release';
import { maskSecrets } from '@atrium/contracts/release-mask';
import { and, asc, count, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Tx, withTenant } from '../../db/client';
import {
  type ReleaseVariable,
  releaseClients,
  releaseEnvs,
  releaseLogChunks,
  releaseStepRuns,
  releaseTasks,
  releaseUserProjects,
  tenants,
  tenantUsers,
} from '../../db/schema';
import type { AgentBridge } from '../realtime/broker';
import { type AgentIdentity, type AgentUpKind, agentDownTopic } from '../realtime/rules';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const newSecret = () => randomBytes(32).toString('base64url');

type TaskRow = typeof releaseTasks.$inferSelect;
type StepResult = { exitCode: number | null; reason: 'exit' | 'canceled' | 'timeout' | 'error' | 'lost' };

const ACTIVE: TaskStatus[] = ['RUNNING', 'CANCELLING'];

export type EngineOptions = {
  /** How long a running task's lock lives without a heartbeat before the task is LOST. */
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

  constructor(
    private readonly app: FastifyInstance,
    readonly options: EngineOptions,
  ) {}

  start() {
    const every = Math.max(250, Math.min(5000, Math.floor(this.options.leaseMs / 3)));
    this.sweeper = setInterval(() => void this.sweep().catch((err: unknown) => this.app.log.warn({ err }, 'release sweep failed')), every);
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
        .select({ status: releaseClients.status, secretHash: releaseClients.secretHash })
        .from(releaseClients)
        .where(eq(releaseClients.id, agent.clientId)),
    ).catch(() => []);
    // a pending (not yet approved), disabled or revoked agent may not connect: it retries until approved
    return !!row && row.status === 'ACTIVE' && row.secretHash === sha256(secret);
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
      await tx.update(releaseClients).set({ lastSeenAt: this.now(), presence: 'online' }).where(eq(releaseClients.id, agent.clientId));
      await tx
        .update(releaseTasks)
        .set({ leaseUntil: this.leaseEnd() })
        .where(and(eq(releaseTasks.clientId, agent.clientId), inArray(releaseTasks.status, ACTIVE)));
    });
  }

  /** On (re)connect the agent lists what it still runs: a run the server thinks is running but the agent lost is LOST. */
  private async hello(agent: AgentIdentity, hello: AgentHeartbeat) {
    const runs = Array.isArray(hello.runs) ? hello.runs.filter((r) => Number.isSafeInteger(r)) : [];
    const running = await withTenant(this.db(), agent.tenantId, async (tx) => {
      await tx
        .update(releaseClients)
        .set({
          lastSeenAt: this.now(),
          presence: 'online',
          ...(typeof hello.agentVersion === 'string' ? { agentVersion: hello.agentVersion.slice(0, 32) } : {}),
        })
        .where(eq(releaseClients.id, agent.clientId));
      return tx
        .select({ id: releaseStepRuns.id })
        .from(releaseStepRuns)
        .where(and(eq(releaseStepRuns.clientId, agent.clientId), eq(releaseStepRuns.status, 'RUNNING')));
    });
    for (const run of running)
      if (!runs.includes(run.id)) await this.finishStep(agent.tenantId, run.id, agent.clientId, { exitCode: null, reason: 'lost' });
    await this.heartbeat(agent, hello);
    await this.dispatchTenant(agent.tenantId);
  }

  private async log(agent: AgentIdentity, chunk: AgentLogChunk) {
    if (!Number.isSafeInteger(chunk.stepRunId) || !Number.isSafeInteger(chunk.seq) || chunk.seq < 0 || typeof chunk.text !== 'string')
      return;
    const stored = await withTenant(this.db(), agent.tenantId, async (tx) => {
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
    if (!Number.isSafeInteger(status.stepRunId) || status.state !== 'finished') return;
    const reason = ['exit', 'canceled', 'timeout', 'error'].includes(status.reason) ? status.reason : 'error';
    const exitCode = Number.isSafeInteger(status.exitCode) ? status.exitCode : null;
    await this.finishStep(agent.tenantId, status.stepRunId, agent.clientId, { exitCode, reason });
  }

  // ---- transitions --------------------------------------------------------------------------------

  private async secretsOfTask(tx: Tx, taskId: number): Promise<string[]> {
    const [row] = await tx
      .select({ variables: releaseEnvs.variables })
      .from(releaseTasks)
      .innerJoin(releaseEnvs, and(eq(releaseEnvs.tenantId, releaseTasks.tenantId), eq(releaseEnvs.id, releaseTasks.envId)))
      .where(eq(releaseTasks.id, taskId));
    return (row?.variables ?? []).filter((v) => v.secret).map((v) => v.value);
  }

  /** The command that runs step `index` of a task, after inserting its step run. */
  private async startStep(tx: Tx, task: TaskRow, index: number, clientId: number): Promise<AgentRunCommand> {
    const step = task.steps[index];
    if (!step) throw new Error('no such step');
    const [run] = await tx
      .insert(releaseStepRuns)
      .values({ tenantId: task.tenantId, taskId: task.id, stepIndex: index, clientId, startedAt: this.now() })
      .returning({ id: releaseStepRuns.id });
    const [env] = await tx.select({ variables: releaseEnvs.variables }).from(releaseEnvs).where(eq(releaseEnvs.id, task.envId));
    const variables: ReleaseVariable[] = env?.variables ?? [];
    const environment: Record<string, string> = {};
    for (const variable of variables) environment[variable.name] = variable.value;
    for (const [name, value] of Object.entries(step.params)) environment[name] = value;
    environment.ATRIUM_TASK_ID = String(task.id);
    environment.ATRIUM_VERSION = task.version;
    environment.ATRIUM_STEP = String(index + 1);
    return {
      type: 'run',
      taskId: task.id,
      stepRunId: (run as { id: number }).id,
      stepIndex: index,
      name: step.name,
      body: step.body,
      sha256: step.sha256,
      timeoutSec: step.timeoutSec,
      env: environment,
      secrets: variables.filter((v) => v.secret).map((v) => v.value),
      heartbeatMs: Math.max(200, Math.floor(this.options.leaseMs / 3)),
      logCapBytes: this.options.logCapBytes,
    };
  }

  /** Records a step's end and moves the task on: the next step, or the task's final state. */
  async finishStep(tenantId: number, stepRunId: number, clientId: number, result: StepResult): Promise<void> {
    const outcome = await withTenant(this.db(), tenantId, async (tx) => {
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
      const [run] = await tx
        .update(releaseStepRuns)
        .set({ status: stepStatus, exitCode: result.exitCode, finishedAt: this.now() })
        .where(and(eq(releaseStepRuns.id, stepRunId), eq(releaseStepRuns.clientId, clientId), eq(releaseStepRuns.status, 'RUNNING')))
        .returning();
      if (!run) return null; // reported twice, or already declared lost
      const [task] = await tx.select().from(releaseTasks).where(eq(releaseTasks.id, run.taskId));
      if (!task || !ACTIVE.includes(task.status as TaskStatus)) return null;
      let next: AgentRunCommand | null = null;
      let nextIndex = run.stepIndex;
      let status: TaskStatus;
      if (task.status === 'CANCELLING') status = 'CANCELED';
      else if (stepStatus === 'SUCCEEDED' && run.stepIndex + 1 < task.steps.length) {
        nextIndex = run.stepIndex + 1;
        next = await this.startStep(tx, task, nextIndex, clientId);
        status = 'RUNNING';
      } else if ((stepStatus === 'FAILED' || stepStatus === 'TIMED_OUT') && (await this.mayRetry(tx, task, run.stepIndex))) {
        // the step's own retries: the same step again on the same agent, a new step run with its own log
        next = await this.startStep(tx, task, run.stepIndex, clientId);
        status = 'RUNNING';
      } else status = stepStatus === 'CANCELED' ? 'CANCELED' : (stepStatus as TaskStatus);
      const finished = status !== 'RUNNING';
      const [moved] = await tx
        .update(releaseTasks)
        .set({
          status,
          currentStep: nextIndex,
          exitCode: result.exitCode,
          leaseUntil: finished ? null : this.leaseEnd(),
          ...(finished ? { finishedAt: this.now() } : {}),
          updateTime: this.now(),
        })
        .where(and(eq(releaseTasks.id, task.id), eq(releaseTasks.status, task.status)))
        .returning();
      return moved ? { task: moved, next, finished } : null;
    });
    if (!outcome) return;
    if (outcome.next) await this.send({ tenantId, clientId }, outcome.next);
    void this.publishTask(tenantId, outcome.task.id, { event: 'status', status: outcome.task.status, exitCode: outcome.task.exitCode });
    if (outcome.finished) await this.dispatch(tenantId, outcome.task.projectId, outcome.task.envId);
  }

  /** Whether a failed step has retries left: it has run fewer times than once plus its `retries`. */
  private async mayRetry(tx: Tx, task: TaskRow, index: number): Promise<boolean> {
    const retries = task.steps[index]?.retries ?? 0;
    if (retries <= 0) return false;
    const [row] = await tx
      .select({ runs: count() })
      .from(releaseStepRuns)
      .where(and(eq(releaseStepRuns.taskId, task.id), eq(releaseStepRuns.stepIndex, index)));
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
      const clientId = await this.pickClient(tx, task);
      if (!clientId) return null;
      const [moved] = await tx
        .update(releaseTasks)
        .set({ status: 'RUNNING', clientId, currentStep: 0, leaseUntil: this.leaseEnd(), startedAt: this.now(), updateTime: this.now() })
        .where(and(eq(releaseTasks.id, task.id), eq(releaseTasks.status, 'QUEUED')))
        .returning();
      if (!moved) return null;
      const command = await this.startStep(tx, moved, 0, clientId);
      return { task: moved, clientId, command };
    }).catch((error: unknown) => {
      // another dispatch took the lock first (the unique index on running tasks): nothing to do
      if (isUniqueViolation(error)) return null;
      throw error;
    });
    if (!started) return;
    await this.send({ tenantId, clientId: started.clientId }, started.command);
    void this.publishTask(tenantId, started.task.id, { event: 'status', status: 'RUNNING', exitCode: null });
  }

  /** An approved, online agent whose labels cover the task's, with room for one more run. */
  private async pickClient(tx: Tx, task: TaskRow): Promise<number | null> {
    const wanted = new Set(task.steps.flatMap((s) => s.labels));
    const candidates = await tx
      .select({ id: releaseClients.id, labels: releaseClients.labels, maxConcurrency: releaseClients.maxConcurrency })
      .from(releaseClients)
      .where(and(eq(releaseClients.status, 'ACTIVE'), eq(releaseClients.presence, 'online')))
      .orderBy(asc(releaseClients.id));
    for (const client of candidates) {
      if (![...wanted].every((label) => client.labels.includes(label))) continue;
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(releaseStepRuns)
        .where(and(eq(releaseStepRuns.clientId, client.id), eq(releaseStepRuns.status, 'RUNNING')));
      if (n < client.maxConcurrency) return client.id;
    }
    return null;
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

  /** Tasks whose lease ran out (no heartbeat: the agent died or lost its network) are LOST and free their lock. */
  async sweep(): Promise<void> {
    const ids = await this.app.database.db.select({ id: tenants.id }).from(tenants);
    for (const { id: tenantId } of ids) {
      const lost = await withTenant(this.db(), tenantId, async (tx) => {
        const expired = await tx
          .update(releaseTasks)
          .set({ status: 'LOST', leaseUntil: null, finishedAt: this.now(), updateTime: this.now() })
          .where(and(inArray(releaseTasks.status, ACTIVE), lt(releaseTasks.leaseUntil, this.now())))
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

  /** Sends a command to one agent's `down` topic. */
  async send(agent: AgentIdentity, command: AgentCommand): Promise<boolean> {
    return this.app.realtime.publishRaw(agentDownTopic(agent), JSON.stringify(command));
  }

  // ---- live updates to browsers -------------------------------------------------------------------

  /** Accounts that follow a task: its creator, the project's grant holders. */
  private async watchersOf(tenantId: number, taskId: number): Promise<number[]> {
    return withTenant(this.db(), tenantId, async (tx) => {
      const [task] = await tx
        .select({ projectId: releaseTasks.projectId, createdByAccount: releaseTasks.createdByAccount })
        .from(releaseTasks)
        .where(eq(releaseTasks.id, taskId));
      if (!task) return [];
      const granted = await tx
        .select({ accountRef: tenantUsers.accountRef })
        .from(releaseUserProjects)
        .innerJoin(tenantUsers, and(eq(tenantUsers.tenantId, releaseUserProjects.tenantId), eq(tenantUsers.id, releaseUserProjects.userId)))
        .where(eq(releaseUserProjects.projectId, task.projectId));
      return [...new Set([task.createdByAccount, ...granted.map((g) => g.accountRef)])];
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
    const admins = await withTenant(this.db(), tenantId, (tx) =>
      tx.select({ accountRef: tenantUsers.accountRef }).from(tenantUsers).limit(500),
    );
    await this.app.publish({
      accountRefs: admins.map((a) => a.accountRef),
      kind: 'task',
      payload: { domain: 'release', event: 'presence', clientId, presence: online ? 'online' : 'offline' },
    });
  }
}

function isUniqueViolation(error: unknown): boolean {
  let e = error as { code?: string; cause?: unknown } | undefined;
  while (e) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}
