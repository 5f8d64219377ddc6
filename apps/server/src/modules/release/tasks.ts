import type { ListQueryOf } from '@atrium/contracts';
import { idParam, levelRank, type PermissionLevel, type TaskKind, type TaskStatus, type taskCreateSchema } from '@atrium/contracts/release';
import { taskEntity } from '@atrium/contracts/release-entities';
import { taskLogSchema, taskSchema } from '@atrium/contracts/release-items';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalidField, refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { registerEntity } from '../../crud/entity';
import { orderOf } from '../../crud/query';
import { typedRoute } from '../../crud/typed-route';
import {
  type ReleaseSnapshotStep,
  releaseAbilities,
  releaseClients,
  releaseEnvs,
  releaseLogChunks,
  releaseProcesses,
  releaseProjects,
  releaseStepRuns,
  releaseTasks,
  releaseUserProjects,
} from '../../db/schema';
import { tenantJoin } from '../../db/tenant-join';
import { forbidden, notFound } from '../../errors';
import { assertRecentSecondFactor } from '../auth/mfa.service';
import { approversOf, at, by, isTenantAdmin, levelOf, requireLevel, strip } from './access';
import type { ReleaseEngine } from './engine';

// tasks: no role-menu permission; what a user may do is decided by their grants on the project and environment
const taskResource = taskEntity.resource;
type TaskRow = typeof releaseTasks.$inferSelect;
type Task = z.output<typeof taskSchema>;
const logQuery = z.object({ format: z.enum(['text', 'json']).default('text') });

const loadTask = async (ctx: Ctx, id: number, needed: PermissionLevel) => {
  const [task] = await ctx.tx.select().from(releaseTasks).where(eq(releaseTasks.id, id));
  if (!task) throw notFound();
  const level = await levelOf(ctx, task.projectId, task.envId);
  // a task of a project the caller has no grant on does not exist for them
  if (!level) throw notFound();
  if (levelRank(level) < levelRank(needed)) throw forbidden();
  return task;
};
/**
 * Why the caller may not approve the task now, as the field and message key the approve route refuses
 * with, or null: the task's detail says it beside a disabled button, so nobody is offered a 409.
 */
const approvalRefusal = (ctx: Ctx, task: TaskRow, level: PermissionLevel | null) => {
  if (task.status !== 'PENDING_APPROVAL') return { field: 'status', rule: 'transition', reason: 'release.transition' };
  if (levelRank(level) < levelRank('APPROVER')) return { field: 'level', rule: 'approver', reason: 'release.approverOnly' };
  // on a protected environment nobody approves their own task
  if (task.createdByAccount === ctx.caller.accountRef) return { field: 'createBy', rule: 'self', reason: 'release.selfApproval' };
  if (task.approvals.includes(ctx.caller.userId ?? -ctx.caller.accountRef)) {
    return { field: 'approvals', rule: 'twice', reason: 'release.approvedTwice' };
  }
  return null;
};
/** A task as the API shows it: its steps without the ability's body. */
const toTask = (task: TaskRow): Task => {
  const { steps, ...rest } = strip(task);
  return { ...rest, steps: steps.map(({ body: _b, ...step }) => step) } as Task;
};
/**
 * The names a task is shown and decided on by (project, environment, process, hosts): whoever may read the
 * task reads them with it, also an approver whose role may not list projects or clients. Empty for a
 * record gone since (the page shows the id then).
 */
const taskNames = async (ctx: Ctx, tasks: TaskRow[]) => {
  const ids = (pick: (t: TaskRow) => number[]) => [...new Set(tasks.flatMap(pick))];
  const named = async (table: typeof releaseProjects | typeof releaseEnvs | typeof releaseProcesses, wanted: number[]) =>
    new Map(
      wanted.length
        ? (await ctx.tx.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, wanted))).map((r) => [r.id, r.name])
        : [],
    );
  const hostsOf = (t: TaskRow) => [...t.targets, ...(t.clientId ? [t.clientId] : [])];
  const hostIds = ids(hostsOf);
  const [projects, envs, processes, hosts] = await Promise.all([
    named(
      releaseProjects,
      ids((t) => [t.projectId]),
    ),
    named(
      releaseEnvs,
      ids((t) => [t.envId]),
    ),
    named(
      releaseProcesses,
      ids((t) => [t.processId]),
    ),
    hostIds.length
      ? ctx.tx
          .select({ id: releaseClients.id, name: releaseClients.hostname })
          .from(releaseClients)
          .where(inArray(releaseClients.id, hostIds))
          .then((rows) => new Map(rows.map((r) => [r.id, r.name])))
      : new Map<number, string>(),
  ]);
  return (task: TaskRow) => ({
    projectName: projects.get(task.projectId) ?? null,
    envName: envs.get(task.envId) ?? null,
    processName: processes.get(task.processId) ?? null,
    hostNames: Object.fromEntries(hostsOf(task).flatMap((id) => (hosts.has(id) ? [[id, hosts.get(id)]] : []))) as Record<string, string>,
  });
};
const projectAndEnv = async (ctx: Ctx, task: TaskRow) => {
  const [project] = await ctx.tx.select().from(releaseProjects).where(eq(releaseProjects.id, task.projectId));
  const [env] = await ctx.tx.select().from(releaseEnvs).where(eq(releaseEnvs.id, task.envId));
  if (!project || !env) throw notFound();
  return { project, env };
};

/** Tasks: deploy, retry, roll back, cancel, approve or reject, and free a lost lock. */
export function taskRoutes(app: FastifyInstance, engine: ReleaseEngine) {
  /** Inserts a task (QUEUED, or PENDING_APPROVAL on a protected environment), then starts it or tells the approvers. */
  const enqueue = async (
    ctx: Ctx,
    input: {
      project: typeof releaseProjects.$inferSelect;
      env: typeof releaseEnvs.$inferSelect;
      processId: number;
      version: string;
      steps: ReleaseSnapshotStep[];
      kind: TaskKind;
      /** a retry of failed hosts: only these agents */
      onlyClients?: number[];
    },
  ) => {
    const { project, env } = input;
    const status: TaskStatus = env.protected ? 'PENDING_APPROVAL' : 'QUEUED';
    const [task] = await ctx.tx
      .insert(releaseTasks)
      .values({
        tenantId: ctx.caller.tenantId,
        projectId: project.id,
        envId: env.id,
        processId: input.processId,
        version: input.version,
        kind: input.kind,
        status,
        steps: input.steps,
        onlyClients: input.onlyClients ?? null,
        createdByUser: ctx.caller.userId ?? 0,
        createdByAccount: ctx.caller.accountRef,
        requiredApprovals: env.protected ? env.requiredApprovals : 0,
        createBy: by(ctx),
      })
      .returning();
    const created = task as TaskRow;
    if (status === 'QUEUED') ctx.afterCommit(() => engine.dispatch(created.tenantId, created.projectId, created.envId));
    else {
      const approvers = await approversOf(ctx, created.projectId, created.envId);
      ctx.afterCommit(() =>
        app
          .notify({
            tenantId: created.tenantId,
            accountRefs: approvers.filter((ref) => ref !== ctx.caller.accountRef),
            type: 'todo',
            title: `${project.name} → ${env.name}: ${input.version}`,
            content: '待审批 · Waiting for approval',
            link: `/release/task?id=${created.id}`,
            sender: by(ctx),
          })
          .catch((err: unknown) => app.log.warn({ err }, 'approvers not notified')),
      );
    }
    return toTask(created);
  };
  // the list, one task and the start of one: the manifest's routes, decided by the caller's grants
  registerEntity(app, taskEntity, {
    async list(ctx, query: ListQueryOf<typeof taskResource>) {
      const conditions: SQL[] = [];
      if (query.projectId) conditions.push(eq(releaseTasks.projectId, query.projectId));
      if (query.envId) conditions.push(eq(releaseTasks.envId, query.envId));
      if (query.status) conditions.push(eq(releaseTasks.status, query.status));
      // anyone but a tenant administrator sees the tasks of what their grants cover (the project, or one environment)
      if (!isTenantAdmin(ctx)) {
        const g = releaseUserProjects;
        conditions.push(
          ctx.caller.userId
            ? sql`exists (select 1 from ${g} where ${g.userId} = ${ctx.caller.userId} and ${g.projectId} = ${releaseTasks.projectId}
                          and (${g.envId} is null or ${g.envId} = ${releaseTasks.envId}))`
            : sql`false`,
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const rows = await ctx.tx
        .select()
        .from(releaseTasks)
        .where(where)
        .orderBy(...orderOf(query.sort, { id: releaseTasks.id, createTime: releaseTasks.createTime }, releaseTasks.id))
        .limit(query.pageSize)
        .offset((query.pageNum - 1) * query.pageSize);
      // counted each time: what a caller sees depends on their grants, so no total is kept for the tenant
      const [counted] = await ctx.tx.select({ n: count() }).from(releaseTasks).where(where);
      const names = await taskNames(ctx, rows);
      return { list: rows.map((row) => ({ ...toTask(row), ...names(row) })), total: counted?.n ?? 0 };
    },
    async get(ctx, id: number) {
      const task = await loadTask(ctx, id, 'VIEWER');
      const runs = await ctx.tx.select().from(releaseStepRuns).where(eq(releaseStepRuns.taskId, task.id)).orderBy(asc(releaseStepRuns.id));
      const refusal =
        task.status === 'PENDING_APPROVAL' ? approvalRefusal(ctx, task, await levelOf(ctx, task.projectId, task.envId)) : null;
      const names = await taskNames(ctx, [task]);
      return { ...toTask(task), ...names(task), stepRuns: runs.map(strip), approveRefusal: refusal?.reason ?? null };
    },
    async create(ctx, body: z.output<typeof taskCreateSchema>) {
      // key share on the environment, project and process: none is deleted under the task (removeUnused)
      const [env] = await ctx.tx.select().from(releaseEnvs).where(eq(releaseEnvs.id, body.envId)).for('key share');
      if (!env) throw invalidField('envId', 'exists', 'ref.missing');
      const [project] = await ctx.tx.select().from(releaseProjects).where(eq(releaseProjects.id, body.projectId)).for('key share');
      if (!project) throw invalidField('projectId', 'exists', 'ref.missing');
      await requireLevel(ctx, project.id, env.id, 'OPERATOR');
      const [process] = await ctx.tx
        .select()
        .from(releaseProcesses)
        .where(and(eq(releaseProcesses.id, body.processId), eq(releaseProcesses.projectId, project.id)))
        .for('key share');
      if (!process) throw invalidField('processId', 'exists', 'ref.missing');
      const abilities = await ctx.tx
        .select()
        .from(releaseAbilities)
        .where(
          inArray(
            releaseAbilities.id,
            process.steps.map((s) => s.abilityId),
          ),
        );
      // the snapshot: later edits of the process or new ability versions do not change a created task
      const steps: ReleaseSnapshotStep[] = process.steps.map((step, index) => {
        const ability = abilities.find((a) => a.id === step.abilityId);
        if (ability?.status !== 'PUBLISHED') throw refused(`steps.${index}`, 'published', 'release.abilityNotPublished');
        return {
          ...step,
          abilityKey: ability.key,
          abilityVersion: ability.version,
          name: ability.name,
          body: ability.body,
          sha256: ability.sha256,
          timeoutSec: step.timeoutSec ?? ability.timeoutSec,
        };
      });
      const task = await enqueue(ctx, { project, env, processId: process.id, version: body.version, steps, kind: 'DEPLOY' });
      return { ...task, projectName: project.name, envName: env.name, processName: process.name, hostNames: {} };
    },
  });
  typedRoute(
    app,
    taskResource,
    {
      ...at('GET', '/release/task/:id/log'),
      summary: 'the whole log of a task: text, or the envelope with ?format=json',
      action: 'log',
      grant: 'release',
      params: idParam,
      query: logQuery,
      response: taskLogSchema,
      asText: (log, query) => (query.format === 'json' ? undefined : log.text),
    },
    async (ctx, { params }) => {
      const found = await loadTask(ctx, params.id, 'VIEWER');
      const chunks = await ctx.tx
        .select({ text: releaseLogChunks.text, stepIndex: releaseStepRuns.stepIndex, stepRunId: releaseLogChunks.stepRunId })
        .from(releaseLogChunks)
        .innerJoin(releaseStepRuns, tenantJoin(releaseStepRuns.id, releaseLogChunks.stepRunId))
        .where(eq(releaseLogChunks.taskId, found.id))
        .orderBy(asc(releaseStepRuns.stepIndex), asc(releaseLogChunks.stepRunId), asc(releaseLogChunks.seq));
      return { text: chunks.map((c) => c.text).join('') };
    },
  );
  // retry: the same snapshot again (same version, same ability bodies), after a task that did not succeed;
  // after a PARTIAL one, on the hosts that did not get through only
  typedRoute(
    app,
    taskResource,
    { ...at('POST', '/release/task/:id/retry'), action: 'retry', grant: 'release', params: idParam, write: true, response: taskSchema },
    async (ctx, { params }) => {
      const task = await loadTask(ctx, params.id, 'OPERATOR');
      if (!['FAILED', 'PARTIAL', 'TIMED_OUT', 'LOST', 'CANCELED'].includes(task.status))
        throw refused('status', 'transition', 'release.transition');
      let onlyClients: number[] | undefined;
      if (task.status === 'PARTIAL') {
        const runs = await ctx.tx
          .select({ clientId: releaseStepRuns.clientId, stepIndex: releaseStepRuns.stepIndex, status: releaseStepRuns.status })
          .from(releaseStepRuns)
          .where(eq(releaseStepRuns.taskId, task.id))
          .orderBy(asc(releaseStepRuns.id));
        const last = new Map(runs.map((r) => [r.clientId, r]));
        const through = (host: number) => last.get(host)?.status === 'SUCCEEDED' && last.get(host)?.stepIndex === task.steps.length - 1;
        onlyClients = task.targets.filter((host) => !through(host));
      }
      return enqueue(ctx, {
        ...(await projectAndEnv(ctx, task)),
        processId: task.processId,
        version: task.version,
        steps: task.steps,
        kind: 'RETRY',
        onlyClients,
      });
    },
  );
  // rollback: the release before this one, as it was deployed, if it is among the project's kept releases
  typedRoute(
    app,
    taskResource,
    {
      ...at('POST', '/release/task/:id/rollback'),
      action: 'rollback',
      grant: 'release',
      params: idParam,
      write: true,
      response: taskSchema,
    },
    async (ctx, { params }) => {
      const task = await loadTask(ctx, params.id, 'OPERATOR');
      const { project, env } = await projectAndEnv(ctx, task);
      const kept = await ctx.tx
        .select()
        .from(releaseTasks)
        .where(and(eq(releaseTasks.projectId, task.projectId), eq(releaseTasks.envId, task.envId), eq(releaseTasks.status, 'SUCCEEDED')))
        .orderBy(desc(releaseTasks.id))
        .limit(project.keepReleases + 1);
      const previous = kept.find((k) => k.id < task.id && k.version !== task.version);
      if (!previous) throw refused('version', 'kept', 'release.noKeptRelease');
      return enqueue(ctx, {
        project,
        env,
        processId: previous.processId,
        version: previous.version,
        steps: previous.steps,
        kind: 'ROLLBACK',
      });
    },
  );
  typedRoute(
    app,
    taskResource,
    { ...at('PUT', '/release/task/:id/cancel'), action: 'cancel', grant: 'release', params: idParam, write: true, response: taskSchema },
    async (ctx, { params }) => {
      const task = await loadTask(ctx, params.id, 'OPERATOR');
      const waiting = ['PENDING_APPROVAL', 'QUEUED'].includes(task.status);
      if (!waiting && task.status !== 'RUNNING') throw refused('status', 'transition', 'release.transition');
      const [moved] = await ctx.tx
        .update(releaseTasks)
        .set(
          waiting
            ? { status: 'CANCELED', finishedAt: new Date(), updateTime: new Date() }
            : { status: 'CANCELLING', updateTime: new Date() },
        )
        .where(and(eq(releaseTasks.id, task.id), eq(releaseTasks.status, task.status)))
        .returning();
      if (!moved) throw refused('status', 'transition', 'release.transition');
      if (!waiting) {
        const runs = await ctx.tx
          .select({ id: releaseStepRuns.id, clientId: releaseStepRuns.clientId })
          .from(releaseStepRuns)
          .where(and(eq(releaseStepRuns.taskId, task.id), eq(releaseStepRuns.status, 'RUNNING')));
        // every host's running step; the lock stays until the agents confirm the kill, or the lease runs out
        ctx.afterCommit(async () => {
          for (const run of runs)
            await engine.send({ tenantId: moved.tenantId, clientId: run.clientId }, { type: 'cancel', stepRunId: run.id });
        });
      }
      ctx.afterCommit(() =>
        engine.publishTask(moved.tenantId, moved.id, { event: 'status', status: moved.status, exitCode: moved.exitCode }),
      );
      return toTask(moved);
    },
  );
  typedRoute(
    app,
    taskResource,
    { ...at('PUT', '/release/task/:id/approve'), action: 'approve', grant: 'release', params: idParam, write: true, response: taskSchema },
    async (ctx, { params }) => {
      const task = await loadTask(ctx, params.id, 'APPROVER');
      const refusal = approvalRefusal(ctx, task, 'APPROVER');
      if (refusal) throw refused(refusal.field, refusal.rule, refusal.reason);
      // a release to a protected environment goes out on this approval: a second factor older than five
      // minutes is asked again first (1022; docs/adr/050-passkeys.md)
      await assertRecentSecondFactor(app, ctx.request.auth, ctx.tx);
      const approver = ctx.caller.userId ?? -ctx.caller.accountRef;
      const approvals = [...task.approvals, approver];
      const enough = approvals.length >= task.requiredApprovals;
      const [moved] = await ctx.tx
        .update(releaseTasks)
        .set({ approvals, status: enough ? 'QUEUED' : 'PENDING_APPROVAL', updateTime: new Date() })
        .where(
          and(
            eq(releaseTasks.id, task.id),
            eq(releaseTasks.status, 'PENDING_APPROVAL'),
            sql`${releaseTasks.approvals} = ${JSON.stringify(task.approvals)}::jsonb`,
          ),
        )
        .returning();
      if (!moved) throw refused('status', 'transition', 'release.transition');
      if (enough) ctx.afterCommit(() => engine.dispatch(moved.tenantId, moved.projectId, moved.envId));
      return toTask(moved);
    },
  );
  typedRoute(
    app,
    taskResource,
    { ...at('PUT', '/release/task/:id/reject'), action: 'reject', grant: 'release', params: idParam, write: true, response: taskSchema },
    async (ctx, { params }) => {
      const task = await loadTask(ctx, params.id, 'APPROVER');
      const [moved] = await ctx.tx
        .update(releaseTasks)
        .set({ status: 'REJECTED', finishedAt: new Date(), updateTime: new Date() })
        .where(and(eq(releaseTasks.id, task.id), eq(releaseTasks.status, 'PENDING_APPROVAL')))
        .returning();
      if (!moved) throw refused('status', 'transition', 'release.transition');
      return toTask(moved);
    },
  );
  // force-release: a MAINTAINER frees the lock of a task whose agent will not come back (audited as a write)
  typedRoute(
    app,
    taskResource,
    {
      ...at('PUT', '/release/task/:id/force-release'),
      action: 'force-release',
      grant: 'release',
      params: idParam,
      write: true,
      response: taskSchema,
    },
    async (ctx, { params }) => {
      const task = await loadTask(ctx, params.id, 'MAINTAINER');
      const [moved] = await ctx.tx
        .update(releaseTasks)
        .set({ status: 'LOST', leaseUntil: null, finishedAt: new Date(), updateTime: new Date() })
        .where(and(eq(releaseTasks.id, task.id), inArray(releaseTasks.status, ['RUNNING', 'CANCELLING'])))
        .returning();
      if (!moved) throw refused('status', 'transition', 'release.transition');
      await ctx.tx
        .update(releaseStepRuns)
        .set({ status: 'LOST', finishedAt: new Date() })
        .where(and(eq(releaseStepRuns.taskId, task.id), eq(releaseStepRuns.status, 'RUNNING')));
      ctx.afterCommit(() => engine.dispatch(moved.tenantId, moved.projectId, moved.envId));
      return toTask(moved);
    },
  );
}
