import { levelRank } from '@atrium/contracts/release';
import { userProjectEntity, userProjectResource } from '@atrium/contracts/release-entities';
import type { ReleaseGrant } from '@atrium/contracts/release-items';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { invalidField, rethrowUnique } from '../../crud/conflict';
import { registerEntity } from '../../crud/entity';
import { tableRepository } from '../../crud/repository';
import { releaseEnvs, releaseProjects, releaseUserProjects, tenantUsers } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { by, levelOf, requireLevel } from './access';

/** A name of the grant's row, read with it: a correlated subquery over the grant's own columns. */
const named = (query: string) => sql<string | null>`(${sql.raw(query)})`;
const names = {
  userName: named(
    `select coalesce(nullif(a.name, ''), nullif(a.nickname, ''), a.account_id) || ' (' || a.account_id || ')'
       from tenant_users u join accounts a on a.id = u.account_ref
      where u.tenant_id = "release_user_projects"."tenant_id" and u.id = "release_user_projects"."user_id"`,
  ),
  projectName: named(
    'select p.name from release_projects p where p.tenant_id = "release_user_projects"."tenant_id" and p.id = "release_user_projects"."project_id"',
  ),
  envName: named(
    'select e.name from release_envs e where e.tenant_id = "release_user_projects"."tenant_id" and e.id = "release_user_projects"."env_id"',
  ),
};

/**
 * User-project grants: the manifest's routes over the table, with the names of what a grant names. Only a
 * MAINTAINER of the project grants on it, and granting what is granted already changes its level; taking
 * a grant away needs MAINTAINER of what it covers.
 */
export function grantRoutes(app: FastifyInstance) {
  const repository = tableRepository(userProjectResource, releaseUserProjects, {
    computed: names,
    // taking a grant away is the granting's other half: a MAINTAINER of what the grant covers (the
    // project, or the one environment), so a MAINTAINER of one environment leaves project-wide grants be
    beforeDelete: async (ctx, id) => {
      const [found] = await ctx.tx
        .select({ projectId: releaseUserProjects.projectId, envId: releaseUserProjects.envId })
        .from(releaseUserProjects)
        .where(eq(releaseUserProjects.id, id));
      if (!found) throw notFound();
      await requireLevel(ctx, found.projectId, found.envId ?? 0, 'MAINTAINER');
    },
  });
  registerEntity(app, userProjectEntity, {
    ...repository,
    async create(ctx, body: z.output<typeof userProjectResource.create>) {
      const envId = body.envId ?? null;
      const [user] = await ctx.tx.select({ id: tenantUsers.id }).from(tenantUsers).where(eq(tenantUsers.id, body.userId));
      if (!user) throw invalidField('userId', 'exists', 'ref.missing');
      // key share on what the grant names: neither is deleted under it (the delete locks the row first)
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
            .returning({ id: releaseUserProjects.id })
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
            .returning({ id: releaseUserProjects.id })
            .catch((error: unknown) => rethrowUnique(error, { release_user_projects_key: 'userId' }));
      return (await repository.get(ctx, (row as { id: number }).id)) as ReleaseGrant;
    },
  });
}
