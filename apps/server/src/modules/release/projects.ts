import type { stepSchema } from '@atrium/contracts/release';
import { processEntity, projectEntity } from '@atrium/contracts/release-entities';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { invalidField } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { registerTable } from '../../crud/entity';
import { releaseAbilities, releaseProcesses, releaseProjects, releaseTasks, releaseUserProjects } from '../../db/schema';
import { notFound } from '../../errors';
import { requireProjectMaintainer } from './access';

/**
 * Projects: what is released. The manifest's routes over the table; its settings are its maintainers',
 * and it goes only when no process, task or grant refers to it.
 */
export function projectRoutes(app: FastifyInstance) {
  registerTable(app, projectEntity, releaseProjects, {
    unique: { key: 'release_projects_key_key' },
    references: [
      { column: releaseProcesses.projectId, reason: 'release.project.hasProcesses' },
      { column: releaseTasks.projectId, reason: 'release.project.hasTasks' },
      { column: releaseUserProjects.projectId, reason: 'release.project.hasGrants' },
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

/**
 * Processes: the manifest's routes over the table. Only a MAINTAINER of the project says what it runs,
 * every step names an ability of the tenant, and a process goes only when no task refers to it.
 */
export function processRoutes(app: FastifyInstance) {
  registerTable(app, processEntity, releaseProcesses, {
    references: [{ column: releaseTasks.processId, reason: 'release.process.hasTasks' }],
    authorizeWrite: async (ctx, input, id) => {
      if (id !== undefined) return requireProjectMaintainer(ctx, await projectOf(ctx, id));
      // key share: the project is not deleted under the process being made (its delete locks it first)
      const [found] = await ctx.tx
        .select({ id: releaseProjects.id })
        .from(releaseProjects)
        .where(eq(releaseProjects.id, input.projectId as number))
        .for('key share');
      if (!found) throw invalidField('projectId', 'exists', 'ref.missing');
      await requireProjectMaintainer(ctx, found.id);
    },
    beforeWrite: async (ctx, input) => {
      const steps = input.steps as z.output<typeof stepSchema>[];
      await checkSteps(ctx, steps);
      return { steps: steps.map((s) => ({ ...s, timeoutSec: s.timeoutSec ?? null })) };
    },
    beforeDelete: async (ctx, id) => requireProjectMaintainer(ctx, await projectOf(ctx, id)),
  });
}

/** The project of a process the caller can see (404 otherwise). */
async function projectOf(ctx: Ctx, id: number): Promise<number> {
  const [found] = await ctx.tx.select({ projectId: releaseProcesses.projectId }).from(releaseProcesses).where(eq(releaseProcesses.id, id));
  if (!found) throw notFound();
  return found.projectId;
}
