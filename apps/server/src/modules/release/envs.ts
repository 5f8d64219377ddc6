import type { envCreateSchema, envUpdateSchema } from '@atrium/contracts/release';
import { envEntity } from '@atrium/contracts/release-entities';
import type { ReleaseEnv } from '@atrium/contracts/release-items';
import { MASK } from '@atrium/contracts/release-mask';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { recordAudit } from '../../crud/audit';
import { invalidField } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { registerTable } from '../../crud/entity';
import { type ReleaseVariable, releaseEnvs, releaseTasks, releaseUserProjects } from '../../db/schema';
import { notFound } from '../../errors';
import { secretContext } from '../../secrets/at-rest';
import { requireEnvMaintainer, strip } from './access';

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

/**
 * The variables an update writes, in plain text: a secret sent without a value keeps the stored one
 * (400 naming the variable when there is none). Changing protection, approvals or variables is the
 * environment's maintainers' (ADR 029); renaming it is the permission's.
 */
async function variablesOf(ctx: Ctx, current: EnvRow, body: z.output<typeof envUpdateSchema>): Promise<ReleaseVariable[]> {
  const variables = body.variables.map((v, index) => {
    if (v.value !== undefined && v.value !== null) return { name: v.name, value: v.value, secret: v.secret };
    const kept = current.variables.find((old) => old.name === v.name && old.secret);
    if (!kept) throw invalidField(`variables.${index}.value`, 'required', 'required');
    return kept;
  });
  const guarded =
    body.protected !== current.protected ||
    body.requiredApprovals !== current.requiredApprovals ||
    JSON.stringify(variables) !== JSON.stringify(current.variables);
  if (guarded) await requireEnvMaintainer(ctx, current.id);
  return variables;
}

/**
 * Environments: shared by every project; protection, approvals and variables are their maintainers'
 * (ADR 029). The manifest's routes over the table: secrets sealed at rest and shown by name only, an
 * update's log entry marks which secrets changed, and an environment goes only when no task or grant
 * refers to it.
 */
export function envRoutes(app: FastifyInstance) {
  // an update's stored row in plain text and the variables it writes, kept for its log entry
  const updating = new WeakMap<Ctx, { current: EnvRow; variables: ReleaseVariable[] }>();
  registerTable(app, envEntity, releaseEnvs, {
    unique: { key: 'release_envs_key_key' },
    references: [
      { column: releaseTasks.envId, reason: 'release.env.hasTasks' },
      { column: releaseUserProjects.envId, reason: 'release.env.hasGrants' },
    ],
    toItem: (row) => toEnv(row as EnvRow),
    beforeWrite: async (ctx, input, id) => {
      if (id === undefined) return { variables: sealVariables(ctx, (input as z.output<typeof envCreateSchema>).variables) };
      const [stored] = await ctx.tx.select().from(releaseEnvs).where(eq(releaseEnvs.id, id)).for('update');
      if (!stored) throw notFound();
      // compared and logged in plain text here, stored sealed
      const current = { ...stored, variables: openVariables(ctx, stored.variables) };
      const variables = await variablesOf(ctx, current, input as z.output<typeof envUpdateSchema>);
      updating.set(ctx, { current, variables });
      return { variables: sealVariables(ctx, variables) };
    },
    afterUpdate: async (ctx, row) => {
      const update = updating.get(ctx);
      if (!update) return;
      const written = { ...(row as EnvRow), variables: update.variables };
      recordAudit(ctx.request, { before: envForLog(update.current), after: envForLog(written, update.current) });
    },
  });
}
