import { ALL_PERMISSIONS } from '@atrium/contracts';
import { levelRank, type PermissionLevel } from '@atrium/contracts/release';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../crud/context';
import { isoDates } from '../../crud/query';
import { releaseUserProjects, tenantUsers } from '../../db/schema';
import { tenantJoin } from '../../db/tenant-join';
import { forbidden } from '../../errors';

/** Every release route is documented as its method and path, and logged as its method. */
export const at = <M extends 'GET' | 'POST' | 'PUT' | 'DELETE'>(method: M, url: string) => ({
  method,
  url,
  summary: `${method} ${url}`,
  logAs: method.toLowerCase(),
});

export const by = (ctx: Ctx) => ctx.caller.accountId;

/** A row as the API shows it: without its tenant, times as ISO strings. */
export const strip = <T extends { tenantId: number }>(row: T) => {
  const { tenantId: _t, ...rest } = row;
  return isoDates(rest);
};

/** A tenant administrator counts as MAINTAINER on every project and environment. */
export function isTenantAdmin(ctx: Ctx): boolean {
  const caller = ctx.caller;
  return caller.superAdmin || caller.permissions.has(ALL_PERMISSIONS) || caller.roles.includes('admin');
}

/** The caller's level on a project and environment: the highest of their grants (the project's "all environments" one included). */
export async function levelOf(ctx: Ctx, projectId: number, envId: number): Promise<PermissionLevel | null> {
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

export async function requireLevel(ctx: Ctx, projectId: number, envId: number, needed: PermissionLevel) {
  if (levelRank(await levelOf(ctx, projectId, envId)) < levelRank(needed)) throw forbidden();
}

/** A project's configuration (its processes, keep count) changes only for a MAINTAINER of the whole project. */
export const requireProjectMaintainer = (ctx: Ctx, projectId: number) => requireLevel(ctx, projectId, 0, 'MAINTAINER');

/**
 * An environment serves every project, so its protection, approvals and variables change only for the
 * tenant administrator or a MAINTAINER of it on every project of the tenant (ADR 029): a MAINTAINER of
 * one project must not lift the approvals another project's deployments wait for.
 */
export async function requireEnvMaintainer(ctx: Ctx, envId: number) {
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

/** Accounts that may approve tasks of a project and environment (APPROVER or MAINTAINER grants). */
export async function approversOf(ctx: Ctx, projectId: number, envId: number): Promise<number[]> {
  const rows = await ctx.tx
    .select({ accountRef: tenantUsers.accountRef })
    .from(releaseUserProjects)
    .innerJoin(tenantUsers, tenantJoin(tenantUsers.id, releaseUserProjects.userId))
    .where(
      and(
        eq(releaseUserProjects.projectId, projectId),
        or(isNull(releaseUserProjects.envId), eq(releaseUserProjects.envId, envId)),
        inArray(releaseUserProjects.level, ['APPROVER', 'MAINTAINER']),
      ),
    );
  return [...new Set(rows.map((r) => r.accountRef))];
}
