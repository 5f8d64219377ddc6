import { idParam, levelRank, userProjectSchema } from '@atrium/contracts/release';
import { type ReleaseGrant, userProjectItemSchema, userProjectListSchema } from '@atrium/contracts/release-items';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { invalidField, rethrowUnique } from '../../crud/conflict';
import { typedRoute } from '../../crud/typed-route';
import { releaseEnvs, releaseProjects, releaseUserProjects, tenantUsers } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { at, by, levelOf, releaseResource, requireLevel, strip } from './access';

// logged as its path (`release:user-project`), permitted as `release:userProject:*`
const grant = releaseResource('user-project', 'userProject');
const toGrant = (row: typeof releaseUserProjects.$inferSelect) => strip(row) as ReleaseGrant;

/** User-project grants: a user's level on a project, or on one environment of it. */
export function grantRoutes(app: FastifyInstance) {
  typedRoute(app, grant, { ...at('GET', '/release/user-project'), action: 'list', response: userProjectListSchema }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseUserProjects).orderBy(asc(releaseUserProjects.id));
    return { list: rows.map(toGrant), total: rows.length };
  });
  typedRoute(
    app,
    grant,
    { ...at('POST', '/release/user-project'), action: 'create', body: userProjectSchema, response: userProjectItemSchema, write: true },
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
      return toGrant(row as typeof releaseUserProjects.$inferSelect);
    },
  );
  typedRoute(
    app,
    grant,
    { ...at('DELETE', '/release/user-project/:id'), action: 'delete', params: idParam, response: userProjectItemSchema, write: true },
    async (ctx, { params }) => {
      const [found] = await ctx.tx.select().from(releaseUserProjects).where(eq(releaseUserProjects.id, params.id));
      if (!found) throw notFound();
      // taking a grant away is the granting's other half: a MAINTAINER of what the grant covers (the
      // project, or the one environment), so a MAINTAINER of one environment leaves project-wide grants be
      await requireLevel(ctx, found.projectId, found.envId ?? 0, 'MAINTAINER');
      const [row] = await ctx.tx.delete(releaseUserProjects).where(eq(releaseUserProjects.id, params.id)).returning();
      return toGrant(row as typeof releaseUserProjects.$inferSelect);
    },
  );
}
