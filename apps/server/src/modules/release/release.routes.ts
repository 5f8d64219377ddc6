import { ALL_PERMISSIONS, fieldMessage } from '@atrium/contracts';
import {
  abilityCreateSchema,
  abilityUpdateSchema,
  clientUpdateSchema,
  enrolSchema,
  envCreateSchema,
  envUpdateSchema,
  finishedTaskStatuses,
  idParam,
  levelRank,
  type PermissionLevel,
  processCreateSchema,
  processUpdateSchema,
  projectCreateSchema,
  projectUpdateSchema,
  type TaskStatus,
  taskCreateSchema,
  taskListQuerySchema,
  userProjectSchema,
} from '@atrium/contracts/release';
import { MASK } from '@atrium/contracts/release-mask';
import { and, asc, count, desc, eq, inArray, isNull, max, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../crud/audit';
import { invalidField, refused, rethrowUnique } from '../../crud/conflict';
import { type Ctx, inTenant } from '../../crud/context';
import { ok } from '../../crud/register-resource';
import { withTenant } from '../../db/client';
import {
  type ReleaseSnapshotStep,
  type ReleaseVariable,
  releaseAbilities,
  releaseClients,
  releaseEnrolTokens,
  releaseEnvs,
  releaseLogChunks,
  releaseProcesses,
  releaseProjects,
  releaseStepRuns,
  releaseTasks,
  releaseUserProjects,
  tenantUsers,
} from '../../db/schema';
import { AppError, forbidden, notFound } from '../../errors';
import { secretContext } from '../../secrets/at-rest';
import { agentUsername } from '../realtime/rules';
import { newSecret, ReleaseEngine, sha256 } from './engine';

type Handler<B, P, Q> = (ctx: Ctx, input: { body: B; params: P; query: Q }) => Promise<unknown>;
type RouteSpec<B extends z.ZodType | undefined, P extends z.ZodType | undefined, Q extends z.ZodType | undefined> = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** the role-menu permission; task routes have none: the user-project grants decide */
  permission?: string;
  body?: B;
  params?: P;
  query?: Q;
  write?: boolean;
};
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A release route: parsed input, the tenant transaction, the envelope, an operation-log entry for writes. */
function route<B extends z.ZodType | undefined, P extends z.ZodType | undefined, Q extends z.ZodType | undefined = undefined>(
  app: FastifyInstance,
  spec: RouteSpec<B, P, Q>,
  handler: Handler<Out<B>, Out<P>, Out<Q>>,
) {
  const name = spec.url.split('/')[2] ?? 'release';
  app.withTypeProvider<ZodTypeProvider>().route({
    method: spec.method,
    url: spec.url,
    schema: {
      tags: ['release'],
      summary: `${spec.method} ${spec.url}`,
      security: [{ bearer: [] }],
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
    },
    config: {
      // without a permission string the handler checks the caller's user-project grant (loadTask, requireLevel)
      ...(spec.permission ? { permission: spec.permission } : { grantChecked: 'release' }),
      ...(spec.write ? { audit: { module: `release:${name}`, action: spec.method.toLowerCase() } } : {}),
    },
    handler: async (request: FastifyRequest) => {
      const result = await inTenant(request, (ctx) =>
        handler(ctx, { body: request.body as Out<B>, params: request.params as Out<P>, query: request.query as Out<Q> }),
      );
      // a handler that records its own after (an environment's, secrets masked) keeps it
      if (spec.write && request.auditState?.after === undefined) recordAudit(request, { after: result });
      return ok(result);
    },
  });
}

const perm = (resource: string, action: string) => `release:${resource}:${action}`;

/** A tenant administrator counts as MAINTAINER on every project and environment. */
function isTenantAdmin(ctx: Ctx): boolean {
  const caller = ctx.caller;
  return caller.superAdmin || caller.permissions.has(ALL_PERMISSIONS) || caller.roles.includes('admin');
}

/** The caller's level on a project and environment: the highest of their grants (the project's "all environments" one included). */
async function levelOf(ctx: Ctx, projectId: number, envId: number): Promise<PermissionLevel | null> {
  if (isTenantAdmin(ctx)) return 'MAINTAINER';
  if (!ctx.caller.userId) return null;
  const grants = await ctx.tx
    .select({ level: releaseUserProjects.level })
    .from(releaseUserProjects)
    .where(
      and(
        eq(releaseUserProjects.userId, ctx.caller.userId),
        eq(releaseUserProjects.projectId, projectId),
        or(isNull(releaseUserProjects.envId), eq(releaseUserProjects.envId, envId)),
      ),
    );
  let best: PermissionLevel | null = null;
  for (const grant of grants) if (levelRank(grant.level as PermissionLevel) > levelRank(best)) best = grant.level as PermissionLevel;
  return best;
}

async function requireLevel(ctx: Ctx, projectId: number, envId: number, needed: PermissionLevel) {
  if (levelRank(await levelOf(ctx, projectId, envId)) < levelRank(needed)) throw forbidden();
}

/** A project's configuration (its processes, keep count) changes only for a MAINTAINER of the whole project. */
const requireProjectMaintainer = (ctx: Ctx, projectId: number) => requireLevel(ctx, projectId, 0, 'MAINTAINER');

/**
 * An environment serves every project, so its protection, approvals and variables change only for the
 * tenant administrator or a MAINTAINER of it on every project of the tenant (ADR 029): a MAINTAINER of
 * one project must not lift the approvals another project's deployments wait for.
 */
async function requireEnvMaintainer(ctx: Ctx, envId: number) {
  if (isTenantAdmin(ctx)) return;
  const userId = ctx.caller.userId;
  if (!userId) throw forbidden();
  const result = await ctx.tx.execute(sql`
    select count(*)::int as projects,
           (count(*) filter (where not exists (
              select 1 from release_user_projects g
               where g.tenant_id = p.tenant_id and g.user_id = ${userId} and g.project_id = p.id
                 and (g.env_id is null or g.env_id = ${envId}) and g.level = 'MAINTAINER')))::int as uncovered
      from release_projects p`);
  const [row] = (result as unknown as { rows: { projects: number; uncovered: number }[] }).rows;
  if (!row || Number(row.projects) === 0 || Number(row.uncovered) > 0) throw forbidden();
}

const toAbility = (row: typeof releaseAbilities.$inferSelect) => {
  const { tenantId: _t, ...rest } = row;
  return rest;
};
/** Secret variables as stored: sealed with the tenant's context (secrets/box.ts); other variables as they are. */
const sealVariables = (ctx: Ctx, variables: ReleaseVariable[]): ReleaseVariable[] =>
  variables.map((v) =>
    v.secret ? { ...v, value: ctx.request.server.secrets.seal(v.value, secretContext.releaseEnv(ctx.caller.tenantId)) } : v,
  );
const openVariables = (ctx: Ctx, variables: ReleaseVariable[]): ReleaseVariable[] =>
  variables.map((v) =>
    v.secret ? { ...v, value: ctx.request.server.secrets.open(v.value, secretContext.releaseEnv(ctx.caller.tenantId)) } : v,
  );

/** Secret values never leave the server: a secret variable comes back with its name only. */
const toEnv = (row: typeof releaseEnvs.$inferSelect) => {
  const { tenantId: _t, variables, ...rest } = row;
  return { ...rest, variables: variables.map((v) => (v.secret ? { name: v.name, secret: true, value: null } : v)) };
};
/**
 * An environment as the operation log shows it: a secret's value is a mask, and `changed: true` on the
 * after side when it was replaced (the log says that it changed, never what it was or became).
 */
const envForLog = (row: typeof releaseEnvs.$inferSelect, before?: typeof releaseEnvs.$inferSelect) => ({
  ...toEnv(row),
  variables: row.variables.map((v) => {
    if (!v.secret) return v;
    const old = before?.variables.find((o) => o.name === v.name && o.secret);
    return { name: v.name, secret: true, value: MASK, ...(before && old?.value !== v.value ? { changed: true } : {}) };
  }),
});
const toClient = (row: typeof releaseClients.$inferSelect) => {
  const { tenantId: _t, secretHash: _s, ...rest } = row;
  return rest;
};
const strip = <T extends { tenantId: number }>(row: T) => {
  const { tenantId: _t, ...rest } = row;
  return rest;
};
const by = (ctx: Ctx) => ctx.caller.accountId;

export async function releaseRoutes(app: FastifyInstance) {
  const engine = new ReleaseEngine(app, { leaseMs: app.config.RELEASE_LEASE_MS, logCapBytes: app.config.RELEASE_LOG_CAP_BYTES });
  app.realtime.agentBridge = engine;
  app.addHook('onReady', async () => engine.start());
  app.addHook('onClose', async () => {
    engine.stop();
    if (app.realtime.agentBridge === engine) app.realtime.agentBridge = null;
  });

  // ---- abilities --------------------------------------------------------------------------------
  route(app, { method: 'GET', url: '/release/ability', permission: perm('ability', 'list') }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseAbilities).orderBy(asc(releaseAbilities.key), desc(releaseAbilities.version));
    return { list: rows.map(toAbility), total: rows.length };
  });
  route(
    app,
    { method: 'GET', url: '/release/ability/:id', permission: perm('ability', 'query'), params: idParam },
    async (ctx, { params }) => {
      const [row] = await ctx.tx.select().from(releaseAbilities).where(eq(releaseAbilities.id, params.id));
      if (!row) throw notFound();
      return toAbility(row);
    },
  );
  route(
    app,
    { method: 'POST', url: '/release/ability', permission: perm('ability', 'create'), body: abilityCreateSchema, write: true },
    async (ctx, { body }) => {
      // a key seen before starts its next version; the first is 1
      const [{ last } = { last: null }] = await ctx.tx
        .select({ last: max(releaseAbilities.version) })
        .from(releaseAbilities)
        .where(eq(releaseAbilities.key, body.key));
      const [row] = await ctx.tx
        .insert(releaseAbilities)
        .values({
          tenantId: ctx.caller.tenantId,
          ...body,
          version: (last ?? 0) + 1,
          sha256: sha256(body.body),
          status: 'DRAFT',
          createBy: by(ctx),
          updateBy: by(ctx),
        })
        .returning()
        .catch((error: unknown) => rethrowUnique(error, { release_abilities_key_version_key: 'key' }));
      return toAbility(row as typeof releaseAbilities.$inferSelect);
    },
  );
  route(
    app,
    {
      method: 'PUT',
      url: '/release/ability/:id',
      permission: perm('ability', 'update'),
      params: idParam,
      body: abilityUpdateSchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      const [row] = await ctx.tx
        .update(releaseAbilities)
        .set({ ...body, sha256: sha256(body.body), updateBy: by(ctx), updateTime: new Date() })
        .where(and(eq(releaseAbilities.id, params.id), eq(releaseAbilities.status, 'DRAFT')))
        .returning();
      if (row) return toAbility(row);
      const [exists] = await ctx.tx.select({ id: releaseAbilities.id }).from(releaseAbilities).where(eq(releaseAbilities.id, params.id));
      // a published version is frozen: publish a new version instead
      throw exists ? refused('status', 'frozen', 'release.abilityFrozen') : notFound();
    },
  );
  for (const [action, from, to] of [
    ['publish', 'DRAFT', 'PUBLISHED'],
    ['deprecate', 'PUBLISHED', 'DEPRECATED'],
  ] as const) {
    route(
      app,
      { method: 'PUT', url: `/release/ability/:id/${action}`, permission: perm('ability', action), params: idParam, write: true },
      async (ctx, { params }) => {
        const [row] = await ctx.tx
          .update(releaseAbilities)
          .set({ status: to, updateBy: by(ctx), updateTime: new Date() })
          .where(and(eq(releaseAbilities.id, params.id), eq(releaseAbilities.status, from)))
          .returning();
        if (row) return toAbility(row);
        const [exists] = await ctx.tx.select({ id: releaseAbilities.id }).from(releaseAbilities).where(eq(releaseAbilities.id, params.id));
        throw exists ? refused('status', 'transition', 'release.transition') : notFound();
      },
    );
  }

  /**
   * Deletes an environment, project or process that nothing refers to (409 naming what does). The row
   * is locked first: a task, process or grant being made from it reads it `for key share`, so it has
   * either committed and is counted here, or waits and then finds the row gone.
   */
  const removeUnused = async (
    ctx: Ctx,
    table: typeof releaseEnvs | typeof releaseProjects | typeof releaseProcesses,
    id: number,
    uses: [column: AnyPgColumn, reason: string][],
  ) => {
    const [row] = await ctx.tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for('update');
    if (!row) throw notFound();
    // every reason at once ("The project has 2 process(es)…; The project has 5 task(s)…"), not one per try
    const blockers: { reason: string; count: number }[] = [];
    for (const [column, reason] of uses) {
      const [used] = await ctx.tx.select({ n: count() }).from(column.table).where(eq(column, id));
      if ((used?.n ?? 0) > 0) blockers.push({ reason, count: used?.n ?? 0 });
    }
    if (blockers.length) {
      const lang = ctx.request.lang;
      throw new AppError('conflict', {
        message: blockers.map((b) => fieldMessage(b.reason, lang, { count: b.count })).join('; '),
        fields: blockers.map((b) => ({ field: 'id', rule: 'inUse', message: b.reason, params: { count: b.count } })),
      });
    }
    const [deleted] = await ctx.tx.delete(table).where(eq(table.id, id)).returning();
    return strip(deleted as Record<string, unknown> & { tenantId: number });
  };

  // ---- environments ------------------------------------------------------------------------------
  route(app, { method: 'GET', url: '/release/env', permission: perm('env', 'list') }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseEnvs).orderBy(asc(releaseEnvs.key));
    return { list: rows.map(toEnv), total: rows.length };
  });
  route(app, { method: 'GET', url: '/release/env/:id', permission: perm('env', 'query'), params: idParam }, async (ctx, { params }) => {
    const [row] = await ctx.tx.select().from(releaseEnvs).where(eq(releaseEnvs.id, params.id));
    if (!row) throw notFound();
    return toEnv(row);
  });
  route(
    app,
    { method: 'POST', url: '/release/env', permission: perm('env', 'create'), body: envCreateSchema, write: true },
    async (ctx, { body }) => {
      const [row] = await ctx.tx
        .insert(releaseEnvs)
        .values({
          tenantId: ctx.caller.tenantId,
          ...body,
          variables: sealVariables(ctx, body.variables),
          createBy: by(ctx),
          updateBy: by(ctx),
        })
        .returning()
        .catch((error: unknown) => rethrowUnique(error, { release_envs_key_key: 'key' }));
      return toEnv(row as typeof releaseEnvs.$inferSelect);
    },
  );
  route(
    app,
    { method: 'PUT', url: '/release/env/:id', permission: perm('env', 'update'), params: idParam, body: envUpdateSchema, write: true },
    async (ctx, { params, body }) => {
      const [stored] = await ctx.tx.select().from(releaseEnvs).where(eq(releaseEnvs.id, params.id)).for('update');
      if (!stored) throw notFound();
      // compared and logged in plain text here, stored sealed
      const current = { ...stored, variables: openVariables(ctx, stored.variables) };
      const variables = body.variables.map((v, index) => {
        if (v.value !== undefined) return { name: v.name, value: v.value, secret: v.secret };
        const kept = current.variables.find((old) => old.name === v.name && old.secret);
        if (!kept) throw invalidField(`variables.${index}.value`, 'required', 'required');
        return kept;
      });
      // the permission renames; protection, approvals and variables are the environment's maintainers' (ADR 029)
      const guarded =
        body.protected !== current.protected ||
        body.requiredApprovals !== current.requiredApprovals ||
        JSON.stringify(variables) !== JSON.stringify(current.variables);
      if (guarded) await requireEnvMaintainer(ctx, current.id);
      const [row] = await ctx.tx
        .update(releaseEnvs)
        .set({ ...body, variables: sealVariables(ctx, variables), updateBy: by(ctx), updateTime: new Date() })
        .where(eq(releaseEnvs.id, params.id))
        .returning();
      const updated = { ...(row as typeof releaseEnvs.$inferSelect), variables };
      recordAudit(ctx.request, { before: envForLog(current), after: envForLog(updated, current) });
      return toEnv(updated);
    },
  );

  route(
    app,
    { method: 'DELETE', url: '/release/env/:id', permission: perm('env', 'delete'), params: idParam, write: true },
    async (ctx, { params }) => {
      const deleted = (await removeUnused(ctx, releaseEnvs, params.id, [
        [releaseTasks.envId, 'release.env.hasTasks'],
        [releaseUserProjects.envId, 'release.env.hasGrants'],
      ])) as unknown as typeof releaseEnvs.$inferSelect;
      // what went is shown like what is kept: secrets by name only
      return toEnv({ ...deleted, tenantId: ctx.caller.tenantId });
    },
  );

  // ---- projects ----------------------------------------------------------------------------------
  route(app, { method: 'GET', url: '/release/project', permission: perm('project', 'list') }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseProjects).orderBy(asc(releaseProjects.key));
    return { list: rows.map(strip), total: rows.length };
  });
  route(
    app,
    { method: 'POST', url: '/release/project', permission: perm('project', 'create'), body: projectCreateSchema, write: true },
    async (ctx, { body }) => {
      const [row] = await ctx.tx
        .insert(releaseProjects)
        .values({ tenantId: ctx.caller.tenantId, ...body, createBy: by(ctx), updateBy: by(ctx) })
        .returning()
        .catch((error: unknown) => rethrowUnique(error, { release_projects_key_key: 'key' }));
      return strip(row as typeof releaseProjects.$inferSelect);
    },
  );
  route(
    app,
    {
      method: 'PUT',
      url: '/release/project/:id',
      permission: perm('project', 'update'),
      params: idParam,
      body: projectUpdateSchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      const [current] = await ctx.tx.select().from(releaseProjects).where(eq(releaseProjects.id, params.id)).for('update');
      if (!current) throw notFound();
      await requireProjectMaintainer(ctx, current.id);
      const [row] = await ctx.tx
        .update(releaseProjects)
        .set({ ...body, updateBy: by(ctx), updateTime: new Date() })
        .where(eq(releaseProjects.id, params.id))
        .returning();
      if (!row) throw notFound();
      recordAudit(ctx.request, { before: strip(current) });
      return strip(row);
    },
  );

  route(
    app,
    { method: 'DELETE', url: '/release/project/:id', permission: perm('project', 'delete'), params: idParam, write: true },
    async (ctx, { params }) =>
      removeUnused(ctx, releaseProjects, params.id, [
        [releaseProcesses.projectId, 'release.project.hasProcesses'],
        [releaseTasks.projectId, 'release.project.hasTasks'],
        [releaseUserProjects.projectId, 'release.project.hasGrants'],
      ]),
  );

  // ---- processes ---------------------------------------------------------------------------------
  const checkSteps = async (ctx: Ctx, steps: { abilityId: number }[]) => {
    const ids = [...new Set(steps.map((s) => s.abilityId))];
    const found = await ctx.tx.select({ id: releaseAbilities.id }).from(releaseAbilities).where(inArray(releaseAbilities.id, ids));
    steps.forEach((step, index) => {
      if (!found.some((f) => f.id === step.abilityId)) throw invalidField(`steps.${index}.abilityId`, 'exists', 'ref.missing');
    });
  };
  route(app, { method: 'GET', url: '/release/process', permission: perm('process', 'list') }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseProcesses).orderBy(asc(releaseProcesses.id));
    return { list: rows.map(strip), total: rows.length };
  });
  route(
    app,
    { method: 'POST', url: '/release/process', permission: perm('process', 'create'), body: processCreateSchema, write: true },
    async (ctx, { body }) => {
      // key share: the project is not deleted under the process being made (removeUnused)
      const [project] = await ctx.tx
        .select({ id: releaseProjects.id })
        .from(releaseProjects)
        .where(eq(releaseProjects.id, body.projectId))
        .for('key share');
      if (!project) throw invalidField('projectId', 'exists', 'ref.missing');
      // what a project runs is its maintainers' to say
      await requireProjectMaintainer(ctx, project.id);
      await checkSteps(ctx, body.steps);
      const steps = body.steps.map((s) => ({ ...s, timeoutSec: s.timeoutSec ?? null }));
      const [row] = await ctx.tx
        .insert(releaseProcesses)
        .values({ tenantId: ctx.caller.tenantId, name: body.name, projectId: body.projectId, steps, createBy: by(ctx), updateBy: by(ctx) })
        .returning();
      return strip(row as typeof releaseProcesses.$inferSelect);
    },
  );
  route(
    app,
    {
      method: 'PUT',
      url: '/release/process/:id',
      permission: perm('process', 'update'),
      params: idParam,
      body: processUpdateSchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      // a process the caller cannot see is a 404 whatever the steps say
      const [current] = await ctx.tx.select().from(releaseProcesses).where(eq(releaseProcesses.id, params.id)).for('update');
      if (!current) throw notFound();
      await requireProjectMaintainer(ctx, current.projectId);
      recordAudit(ctx.request, { before: strip(current) });
      await checkSteps(ctx, body.steps);
      const steps = body.steps.map((s) => ({ ...s, timeoutSec: s.timeoutSec ?? null }));
      const [row] = await ctx.tx
        .update(releaseProcesses)
        .set({ name: body.name, steps, updateBy: by(ctx), updateTime: new Date() })
        .where(eq(releaseProcesses.id, params.id))
        .returning();
      if (!row) throw notFound();
      return strip(row);
    },
  );

  route(
    app,
    { method: 'DELETE', url: '/release/process/:id', permission: perm('process', 'delete'), params: idParam, write: true },
    async (ctx, { params }) => {
      const [current] = await ctx.tx
        .select({ projectId: releaseProcesses.projectId })
        .from(releaseProcesses)
        .where(eq(releaseProcesses.id, params.id));
      if (!current) throw notFound();
      await requireProjectMaintainer(ctx, current.projectId);
      return removeUnused(ctx, releaseProcesses, params.id, [[releaseTasks.processId, 'release.process.hasTasks']]);
    },
  );

  // ---- clients (agents) --------------------------------------------------------------------------
  route(app, { method: 'GET', url: '/release/client', permission: perm('client', 'list') }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseClients).orderBy(asc(releaseClients.id));
    return { list: rows.map(toClient), total: rows.length };
  });
  route(
    app,
    { method: 'GET', url: '/release/client/:id', permission: perm('client', 'query'), params: idParam },
    async (ctx, { params }) => {
      const [row] = await ctx.tx.select().from(releaseClients).where(eq(releaseClients.id, params.id));
      if (!row) throw notFound();
      return toClient(row);
    },
  );
  route(app, { method: 'POST', url: '/release/client/enrol-token', permission: perm('client', 'enrol'), write: true }, async (ctx) => {
    // the tenant is part of the token: enrolment finds its row without looking through every tenant
    const token = `${ctx.caller.tenantId}.${newSecret()}`;
    const expiresAt = new Date(app.clock.now().getTime() + app.config.RELEASE_ENROL_TOKEN_TTL_MS);
    await ctx.tx
      .insert(releaseEnrolTokens)
      .values({ tenantId: ctx.caller.tenantId, tokenHash: sha256(token), expiresAt, createBy: by(ctx) });
    return { token, expiresAt: expiresAt.toISOString() };
  });
  for (const [action, from, to] of [
    ['approve', ['PENDING', 'DISABLED'], 'ACTIVE'],
    ['disable', ['PENDING', 'ACTIVE'], 'DISABLED'],
    ['revoke', ['PENDING', 'ACTIVE', 'DISABLED'], 'REVOKED'],
  ] as const) {
    route(
      app,
      { method: 'PUT', url: `/release/client/:id/${action}`, permission: perm('client', action), params: idParam, write: true },
      async (ctx, { params }) => {
        const [row] = await ctx.tx
          .update(releaseClients)
          .set({ status: to, updateBy: by(ctx), updateTime: new Date() })
          .where(and(eq(releaseClients.id, params.id), inArray(releaseClients.status, [...from])))
          .returning();
        // a disabled or revoked agent is disconnected at once, and its running steps are LOST
        if (row && to !== 'ACTIVE')
          ctx.afterCommit(() =>
            engine.clientEnded(row.tenantId, row.id).catch((err: unknown) => app.log.warn({ err }, 'an ended agent not wound up')),
          );
        if (row) return toClient(row);
        const [exists] = await ctx.tx.select({ id: releaseClients.id }).from(releaseClients).where(eq(releaseClients.id, params.id));
        throw exists ? refused('status', 'transition', 'release.transition') : notFound();
      },
    );
  }
  route(
    app,
    {
      method: 'PUT',
      url: '/release/client/:id',
      permission: perm('client', 'update'),
      params: idParam,
      body: clientUpdateSchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      const [row] = await ctx.tx
        .update(releaseClients)
        .set({ ...body, updateBy: by(ctx), updateTime: new Date() })
        .where(eq(releaseClients.id, params.id))
        .returning();
      if (!row) throw notFound();
      return toClient(row);
    },
  );
  // called by the agent, without a session: the one-time token is the credential
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: '/release/client/enrol',
    schema: { tags: ['release'], summary: 'an agent enrols with a one-time token', body: enrolSchema },
    config: { public: true, rateLimit: { max: 20, timeWindow: 60_000 } },
    handler: async (request) => {
      const body = request.body as z.output<typeof enrolSchema>;
      const tenantId = Number(body.token.split('.')[0]);
      const refuse = refused('token', 'invalid', 'release.enrolToken');
      if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw refuse;
      const now = app.clock.now();
      const secret = newSecret();
      const client = await withTenant(app.database.db, tenantId, async (tx) => {
        // single use: the token is spent by the same statement that checks it
        const [spent] = await tx
          .update(releaseEnrolTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(releaseEnrolTokens.tokenHash, sha256(body.token)),
              isNull(releaseEnrolTokens.usedAt),
              sql`${releaseEnrolTokens.expiresAt} > ${now}`,
            ),
          )
          .returning({ id: releaseEnrolTokens.id });
        if (!spent) return null;
        const [row] = await tx
          .insert(releaseClients)
          .values({
            tenantId,
            hostname: body.hostname,
            os: body.os,
            agentVersion: body.agentVersion,
            labels: body.labels,
            maxConcurrency: body.maxConcurrency,
            status: 'PENDING',
            secretHash: sha256(secret),
            createBy: 'agent',
          })
          .returning({ id: releaseClients.id });
        await tx.update(releaseEnrolTokens).set({ clientId: row?.id }).where(eq(releaseEnrolTokens.id, spent.id));
        return row ?? null;
      }).catch((error: unknown) => {
        // a tenant that does not exist: the same answer as an unknown token
        if ((error as { code?: string }).code === '23503') return null;
        throw error;
      });
      if (!client) throw refuse;
      const identity = { tenantId, clientId: client.id };
      return ok({
        id: client.id,
        tenantId,
        secret,
        username: agentUsername(identity),
        broker: app.realtime.publicUrl,
        brokerPort: app.realtime.port,
      });
    },
  });

  // ---- user-project permissions ------------------------------------------------------------------
  route(app, { method: 'GET', url: '/release/user-project', permission: perm('userProject', 'list') }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseUserProjects).orderBy(asc(releaseUserProjects.id));
    return { list: rows.map(strip), total: rows.length };
  });
  route(
    app,
    { method: 'POST', url: '/release/user-project', permission: perm('userProject', 'create'), body: userProjectSchema, write: true },
    async (ctx, { body }) => {
      const envId = body.envId ?? null;
      const [user] = await ctx.tx.select({ id: tenantUsers.id }).from(tenantUsers).where(eq(tenantUsers.id, body.userId));
      if (!user) throw invalidField('userId', 'exists', 'ref.missing');
      // key share on what the grant names: neither is deleted under it (removeUnused)
      const [project] = await ctx.tx
        .select({ id: releaseProjects.id })
        .from(releaseProjects)
        .where(eq(releaseProjects.id, body.projectId))
        .for('key share');
      if (!project) throw invalidField('projectId', 'exists', 'ref.missing');
      if (envId) {
        const [env] = await ctx.tx.select({ id: releaseEnvs.id }).from(releaseEnvs).where(eq(releaseEnvs.id, envId)).for('key share');
        if (!env) throw invalidField('envId', 'exists', 'ref.missing');
      }
      // only a MAINTAINER of the project grants on it, and never above their own level
      const granter = await levelOf(ctx, body.projectId, envId ?? 0);
      if (levelRank(granter) < levelRank('MAINTAINER')) throw forbidden();
      const [existing] = await ctx.tx
        .select({ id: releaseUserProjects.id })
        .from(releaseUserProjects)
        .where(
          and(
            eq(releaseUserProjects.userId, body.userId),
            eq(releaseUserProjects.projectId, body.projectId),
            envId ? eq(releaseUserProjects.envId, envId) : isNull(releaseUserProjects.envId),
          ),
        );
      const [row] = existing
        ? await ctx.tx
            .update(releaseUserProjects)
            .set({ level: body.level, updateBy: by(ctx), updateTime: new Date() })
            .where(eq(releaseUserProjects.id, existing.id))
            .returning()
        : await ctx.tx
            .insert(releaseUserProjects)
            .values({
              tenantId: ctx.caller.tenantId,
              userId: body.userId,
              projectId: body.projectId,
              envId,
              level: body.level,
              createBy: by(ctx),
            })
            .returning()
            .catch((error: unknown) => rethrowUnique(error, { release_user_projects_key: 'userId' }));
      return strip(row as typeof releaseUserProjects.$inferSelect);
    },
  );
  route(
    app,
    { method: 'DELETE', url: '/release/user-project/:id', permission: perm('userProject', 'delete'), params: idParam, write: true },
    async (ctx, { params }) => {
      const [grant] = await ctx.tx.select().from(releaseUserProjects).where(eq(releaseUserProjects.id, params.id));
      if (!grant) throw notFound();
      // taking a grant away is the granting's other half: a MAINTAINER of what the grant covers (the
      // project, or the one environment), so a MAINTAINER of one environment leaves project-wide grants be
      await requireLevel(ctx, grant.projectId, grant.envId ?? 0, 'MAINTAINER');
      const [row] = await ctx.tx.delete(releaseUserProjects).where(eq(releaseUserProjects.id, params.id)).returning();
      return strip(row as typeof releaseUserProjects.$inferSelect);
    },
  );

  // ---- tasks: what a user may do is decided by their grants on the project and environment ---------
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
  const approvalRefusal = (ctx: Ctx, task: typeof releaseTasks.$inferSelect, level: PermissionLevel | null) => {
    if (task.status !== 'PENDING_APPROVAL') return { field: 'status', rule: 'transition', reason: 'release.transition' };
    if (levelRank(level) < levelRank('APPROVER')) return { field: 'level', rule: 'approver', reason: 'release.approverOnly' };
    // on a protected environment nobody approves their own task
    if (task.createdByAccount === ctx.caller.accountRef) return { field: 'createBy', rule: 'self', reason: 'release.selfApproval' };
    if (task.approvals.includes(ctx.caller.userId ?? -ctx.caller.accountRef)) {
      return { field: 'approvals', rule: 'twice', reason: 'release.approvedTwice' };
    }
    return null;
  };
  const toTask = (task: typeof releaseTasks.$inferSelect) => {
    const { tenantId: _t, steps, ...rest } = task;
    return { ...rest, steps: steps.map(({ body: _b, ...step }) => step) };
  };
  /**
   * The names a task is shown and decided on by (project, environment, process, hosts): whoever may read the
   * task reads them with it, also an approver whose role may not list projects or clients. Empty for a
   * record gone since (the page shows the id then).
   */
  const taskNames = async (ctx: Ctx, tasks: (typeof releaseTasks.$inferSelect)[]) => {
    const ids = (pick: (t: typeof releaseTasks.$inferSelect) => number[]) => [...new Set(tasks.flatMap(pick))];
    const named = async (table: typeof releaseProjects | typeof releaseEnvs | typeof releaseProcesses, wanted: number[]) =>
      new Map(
        wanted.length
          ? (await ctx.tx.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, wanted))).map((r) => [
              r.id,
              r.name,
            ])
          : [],
      );
    const hostsOf = (t: typeof releaseTasks.$inferSelect) => [...t.targets, ...(t.clientId ? [t.clientId] : [])];
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
    return (task: typeof releaseTasks.$inferSelect) => ({
      projectName: projects.get(task.projectId) ?? null,
      envName: envs.get(task.envId) ?? null,
      processName: processes.get(task.processId) ?? null,
      hostNames: Object.fromEntries(hostsOf(task).flatMap((id) => (hosts.has(id) ? [[id, hosts.get(id)]] : []))) as Record<number, string>,
    });
  };

  route(app, { method: 'GET', url: '/release/task', query: taskListQuerySchema }, async (ctx, { query }) => {
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
      .orderBy(desc(releaseTasks.id))
      .limit(query.pageSize)
      .offset((query.pageNum - 1) * query.pageSize);
    const [counted] = await ctx.tx.select({ n: count() }).from(releaseTasks).where(where);
    const names = await taskNames(ctx, rows);
    return {
      list: rows.map((row) => ({ ...toTask(row), ...names(row) })),
      total: counted?.n ?? 0,
      pageNum: query.pageNum,
      pageSize: query.pageSize,
    };
  });
  route(app, { method: 'GET', url: '/release/task/:id', params: idParam }, async (ctx, { params }) => {
    const task = await loadTask(ctx, params.id, 'VIEWER');
    const runs = await ctx.tx.select().from(releaseStepRuns).where(eq(releaseStepRuns.taskId, task.id)).orderBy(asc(releaseStepRuns.id));
    const refusal = task.status === 'PENDING_APPROVAL' ? approvalRefusal(ctx, task, await levelOf(ctx, task.projectId, task.envId)) : null;
    const names = await taskNames(ctx, [task]);
    return { ...toTask(task), ...names(task), stepRuns: runs.map(strip), approveRefusal: refusal?.reason ?? null };
  });
  const logQuery = z.object({ format: z.enum(['text', 'json']).default('text') });
  app.get(
    '/release/task/:id/log',
    {
      // the caller's grant on the task's project and environment decides (loadTask)
      config: { grantChecked: 'release' },
      schema: {
        tags: ['release'],
        summary: 'the whole log of a task: text, or the envelope with ?format=json',
        params: idParam,
        querystring: logQuery,
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const { format } = request.query as z.output<typeof logQuery>;
      const text = await inTenant(request, async (ctx) => {
        const task = await loadTask(ctx, id, 'VIEWER');
        const chunks = await ctx.tx
          .select({ text: releaseLogChunks.text, stepIndex: releaseStepRuns.stepIndex, stepRunId: releaseLogChunks.stepRunId })
          .from(releaseLogChunks)
          .innerJoin(
            releaseStepRuns,
            and(eq(releaseStepRuns.tenantId, releaseLogChunks.tenantId), eq(releaseStepRuns.id, releaseLogChunks.stepRunId)),
          )
          .where(eq(releaseLogChunks.taskId, task.id))
          .orderBy(asc(releaseStepRuns.stepIndex), asc(releaseLogChunks.stepRunId), asc(releaseLogChunks.seq));
        return chunks.map((c) => c.text).join('');
      });
      if (format === 'json') return ok({ text });
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );
  route(app, { method: 'POST', url: '/release/task', body: taskCreateSchema, write: true }, async (ctx, { body }) => {
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
    return enqueue(ctx, { project, env, processId: process.id, version: body.version, steps, kind: 'DEPLOY' });
  });

  /** Inserts a task (QUEUED, or PENDING_APPROVAL on a protected environment), then starts it or tells the approvers. */
  const enqueue = async (
    ctx: Ctx,
    input: {
      project: typeof releaseProjects.$inferSelect;
      env: typeof releaseEnvs.$inferSelect;
      processId: number;
      version: string;
      steps: ReleaseSnapshotStep[];
      kind: 'DEPLOY' | 'RETRY' | 'ROLLBACK';
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
    const created = task as typeof releaseTasks.$inferSelect;
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
  const projectAndEnv = async (ctx: Ctx, task: typeof releaseTasks.$inferSelect) => {
    const [project] = await ctx.tx.select().from(releaseProjects).where(eq(releaseProjects.id, task.projectId));
    const [env] = await ctx.tx.select().from(releaseEnvs).where(eq(releaseEnvs.id, task.envId));
    if (!project || !env) throw notFound();
    return { project, env };
  };
  // retry: the same snapshot again (same version, same ability bodies), after a task that did not succeed;
  // after a PARTIAL one, on the hosts that did not get through only
  route(app, { method: 'POST', url: '/release/task/:id/retry', params: idParam, write: true }, async (ctx, { params }) => {
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
  });
  // rollback: the release before this one, as it was deployed, if it is among the project's kept releases
  route(app, { method: 'POST', url: '/release/task/:id/rollback', params: idParam, write: true }, async (ctx, { params }) => {
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
  });
  route(app, { method: 'PUT', url: '/release/task/:id/cancel', params: idParam, write: true }, async (ctx, { params }) => {
    const task = await loadTask(ctx, params.id, 'OPERATOR');
    const waiting = ['PENDING_APPROVAL', 'QUEUED'].includes(task.status);
    if (!waiting && task.status !== 'RUNNING') throw refused('status', 'transition', 'release.transition');
    const [moved] = await ctx.tx
      .update(releaseTasks)
      .set(
        waiting ? { status: 'CANCELED', finishedAt: new Date(), updateTime: new Date() } : { status: 'CANCELLING', updateTime: new Date() },
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
  });
  route(app, { method: 'PUT', url: '/release/task/:id/approve', params: idParam, write: true }, async (ctx, { params }) => {
    const task = await loadTask(ctx, params.id, 'APPROVER');
    const refusal = approvalRefusal(ctx, task, 'APPROVER');
    if (refusal) throw refused(refusal.field, refusal.rule, refusal.reason);
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
  });
  route(app, { method: 'PUT', url: '/release/task/:id/reject', params: idParam, write: true }, async (ctx, { params }) => {
    const task = await loadTask(ctx, params.id, 'APPROVER');
    const [moved] = await ctx.tx
      .update(releaseTasks)
      .set({ status: 'REJECTED', finishedAt: new Date(), updateTime: new Date() })
      .where(and(eq(releaseTasks.id, task.id), eq(releaseTasks.status, 'PENDING_APPROVAL')))
      .returning();
    if (!moved) throw refused('status', 'transition', 'release.transition');
    return toTask(moved);
  });
  // force-release: a MAINTAINER frees the lock of a task whose agent will not come back (audited as a write)
  route(app, { method: 'PUT', url: '/release/task/:id/force-release', params: idParam, write: true }, async (ctx, { params }) => {
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
  });
  void finishedTaskStatuses;
}

/** Accounts that may approve tasks of a project and environment (APPROVER or MAINTAINER grants). */
async function approversOf(ctx: Ctx, projectId: number, envId: number): Promise<number[]> {
  const rows = await ctx.tx
    .select({ accountRef: tenantUsers.accountRef })
    .from(releaseUserProjects)
    .innerJoin(tenantUsers, and(eq(tenantUsers.tenantId, releaseUserProjects.tenantId), eq(tenantUsers.id, releaseUserProjects.userId)))
    .where(
      and(
        eq(releaseUserProjects.projectId, projectId),
        or(isNull(releaseUserProjects.envId), eq(releaseUserProjects.envId, envId)),
        inArray(releaseUserProjects.level, ['APPROVER', 'MAINTAINER']),
      ),
    );
  return [...new Set(rows.map((r) => r.accountRef))];
}
