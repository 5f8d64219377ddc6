import { envCreateSchema, envUpdateSchema, idParam } from '@atrium/contracts/release';
import { envListSchema, envSchema, type ReleaseEnv } from '@atrium/contracts/release-items';
import { MASK } from '@atrium/contracts/release-mask';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { recordAudit } from '../../crud/audit';
import { invalidField, rethrowUnique } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { typedRoute } from '../../crud/typed-route';
import { type ReleaseVariable, releaseEnvs, releaseTasks, releaseUserProjects } from '../../db/schema';
import { notFound } from '../../errors';
import { secretContext } from '../../secrets/at-rest';
import { at, by, releaseResource, removeUnused, requireEnvMaintainer, strip } from './access';

const env = releaseResource('env');
type EnvRow = typeof releaseEnvs.$inferSelect;

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
const toEnv = (row: EnvRow): ReleaseEnv => {
  const { variables, ...rest } = strip(row);
  return { ...rest, variables: variables.map((v) => (v.secret ? { name: v.name, secret: true, value: null } : v)) };
};
/**
 * An environment as the operation log shows it: a secret's value is a mask, and `changed: true` on the
 * after side when it was replaced (the log says that it changed, never what it was or became).
 */
const envForLog = (row: EnvRow, before?: EnvRow) => ({
  ...toEnv(row),
  variables: row.variables.map((v) => {
    if (!v.secret) return v;
    const old = before?.variables.find((o) => o.name === v.name && o.secret);
    return { name: v.name, secret: true, value: MASK, ...(before && old?.value !== v.value ? { changed: true } : {}) };
  }),
});

/** Environments: shared by every project; protection, approvals and variables are their maintainers' (ADR 029). */
export function envRoutes(app: FastifyInstance) {
  typedRoute(app, env, { ...at('GET', '/release/env'), action: 'list', response: envListSchema }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseEnvs).orderBy(asc(releaseEnvs.key));
    return { list: rows.map(toEnv), total: rows.length };
  });
  typedRoute(
    app,
    env,
    { ...at('GET', '/release/env/:id'), action: 'query', params: idParam, response: envSchema },
    async (ctx, { params }) => {
      const [row] = await ctx.tx.select().from(releaseEnvs).where(eq(releaseEnvs.id, params.id));
      if (!row) throw notFound();
      return toEnv(row);
    },
  );
  typedRoute(
    app,
    env,
    { ...at('POST', '/release/env'), action: 'create', body: envCreateSchema, response: envSchema, write: true },
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
      return toEnv(row as EnvRow);
    },
  );
  typedRoute(
    app,
    env,
    { ...at('PUT', '/release/env/:id'), action: 'update', params: idParam, body: envUpdateSchema, response: envSchema, write: true },
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
      const updated = { ...(row as EnvRow), variables };
      recordAudit(ctx.request, { before: envForLog(current), after: envForLog(updated, current) });
      return toEnv(updated);
    },
  );
  typedRoute(
    app,
    env,
    { ...at('DELETE', '/release/env/:id'), action: 'delete', params: idParam, response: envSchema, write: true },
    async (ctx, { params }) => {
      const deleted = await removeUnused(ctx, params.id, [
        { column: releaseTasks.envId, tenant: releaseTasks.tenantId, reason: 'release.env.hasTasks' },
        { column: releaseUserProjects.envId, tenant: releaseUserProjects.tenantId, reason: 'release.env.hasGrants' },
      ]);
      // what went is shown like what is kept: secrets by name only
      return toEnv(deleted);
    },
  );
}
