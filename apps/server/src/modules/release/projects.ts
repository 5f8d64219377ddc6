import { idParam, processCreateSchema, processUpdateSchema } from '@atrium/contracts/release';
import { projectEntity } from '@atrium/contracts/release-entities';
import { processListSchema, processSchema } from '@atrium/contracts/release-items';
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { recordAudit } from '../../crud/audit';
import { invalidField } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { registerTable } from '../../crud/entity';
import { typedRoute } from '../../crud/typed-route';
import { releaseAbilities, releaseProcesses, releaseProjects, releaseTasks, releaseUserProjects } from '../../db/schema';
import { notFound } from '../../errors';
import { at, by, releaseResource, removeUnused, requireProjectMaintainer, strip } from './access';

const processResource = releaseResource('process');

/**
 * Projects: what is released. The manifest's routes over the table; its settings are its maintainers',
 * and it goes only when no process, task or grant refers to it.
 */
export function projectRoutes(app: FastifyInstance) {
  registerTable(app, projectEntity, releaseProjects, {
    unique: { key: 'release_projects_key_key' },
    references: [
      { column: releaseProcesses.projectId, tenant: releaseProcesses.tenantId, reason: 'release.project.hasProcesses' },
      { column: releaseTasks.projectId, tenant: releaseTasks.tenantId, reason: 'release.project.hasTasks' },
      { column: releaseUserProjects.projectId, tenant: releaseUserProjects.tenantId, reason: 'release.project.hasGrants' },
    ],
    authorizeWrite: async (ctx, _input, id) => {
      if (id !== undefined) await requireProjectMaintainer(ctx, id);
    },
  });
}

/** Every step names an ability of the tenant (400 naming the step otherwise). */
async function checkSteps(ctx: Ctx, steps: { abilityId: number }[]) {
  const ids = [...new Set(steps.map((s) => s.abilityId))];
  const found = await ctx.tx.select({ id: releaseAbilities.id }).from(releaseAbilities).where(inArray(releaseAbilities.id, ids));
  steps.forEach((step, index) => {
    if (!found.some((f) => f.id === step.abilityId)) throw invalidField(`steps.${index}.abilityId`, 'exists', 'ref.missing');
  });
}

/** Processes: a project's steps, each an ability with parameters; what a project runs is its maintainers' to say. */
export function processRoutes(app: FastifyInstance) {
  typedRoute(app, processResource, { ...at('GET', '/release/process'), action: 'list', response: processListSchema }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseProcesses).orderBy(asc(releaseProcesses.id));
    return { list: rows.map(strip), total: rows.length };
  });
  typedRoute(
    app,
    processResource,
    { ...at('POST', '/release/process'), action: 'create', body: processCreateSchema, response: processSchema, write: true },
    async (ctx, { body }) => {
      // key share: the project is not deleted under the process being made (removeUnused)
      const [found] = await ctx.tx
        .select({ id: releaseProjects.id })
        .from(releaseProjects)
        .where(eq(releaseProjects.id, body.projectId))
        .for('key share');
      if (!found) throw invalidField('projectId', 'exists', 'ref.missing');
      // what a project runs is its maintainers' to say
      await requireProjectMaintainer(ctx, found.id);
      await checkSteps(ctx, body.steps);
      const steps = body.steps.map((s) => ({ ...s, timeoutSec: s.timeoutSec ?? null }));
      const [row] = await ctx.tx
        .insert(releaseProcesses)
        .values({ tenantId: ctx.caller.tenantId, name: body.name, projectId: body.projectId, steps, createBy: by(ctx), updateBy: by(ctx) })
        .returning();
      return strip(row as typeof releaseProcesses.$inferSelect);
    },
  );
  typedRoute(
    app,
    processResource,
    {
      ...at('PUT', '/release/process/:id'),
      action: 'update',
      params: idParam,
      body: processUpdateSchema,
      response: processSchema,
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
  typedRoute(
    app,
    processResource,
    { ...at('DELETE', '/release/process/:id'), action: 'delete', params: idParam, response: processSchema, write: true },
    async (ctx, { params }) => {
      const [current] = await ctx.tx
        .select({ projectId: releaseProcesses.projectId })
        .from(releaseProcesses)
        .where(eq(releaseProcesses.id, params.id));
      if (!current) throw notFound();
      await requireProjectMaintainer(ctx, current.projectId);
      return strip(await removeUnused(ctx, releaseProcesses, params.id, [[releaseTasks.processId, 'release.process.hasTasks']]));
    },
  );
}
