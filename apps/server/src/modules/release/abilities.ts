import { abilityCreateSchema, abilityUpdateSchema, idParam } from '@atrium/contracts/release';
import { abilityListSchema, abilitySchema, type ReleaseAbility } from '@atrium/contracts/release-items';
import { and, asc, desc, eq, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { refused, rethrowUnique } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { typedRoute } from '../../crud/typed-route';
import { releaseAbilities } from '../../db/schema';
import { notFound } from '../../errors';
import { at, by, releaseResource, strip } from './access';
import { sha256 } from './engine';

const ability = releaseResource('ability');
const toAbility = (row: typeof releaseAbilities.$inferSelect) => strip(row) as ReleaseAbility;

/** A published version is frozen, a transition moves from one status only: 409 for a row that is there, else 404. */
async function refuseOrMissing(ctx: Ctx, id: number, reason: [rule: string, key: string]): Promise<never> {
  const [exists] = await ctx.tx.select({ id: releaseAbilities.id }).from(releaseAbilities).where(eq(releaseAbilities.id, id));
  throw exists ? refused('status', ...reason) : notFound();
}

/** Abilities: versioned shell scripts; a key seen before starts its next version, a published one is frozen. */
export function abilityRoutes(app: FastifyInstance) {
  typedRoute(app, ability, { ...at('GET', '/release/ability'), action: 'list', response: abilityListSchema }, async (ctx) => {
    const rows = await ctx.tx.select().from(releaseAbilities).orderBy(asc(releaseAbilities.key), desc(releaseAbilities.version));
    return { list: rows.map(toAbility), total: rows.length };
  });
  typedRoute(
    app,
    ability,
    { ...at('GET', '/release/ability/:id'), action: 'query', params: idParam, response: abilitySchema },
    async (ctx, { params }) => {
      const [row] = await ctx.tx.select().from(releaseAbilities).where(eq(releaseAbilities.id, params.id));
      if (!row) throw notFound();
      return toAbility(row);
    },
  );
  typedRoute(
    app,
    ability,
    { ...at('POST', '/release/ability'), action: 'create', body: abilityCreateSchema, response: abilitySchema, write: true },
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
  typedRoute(
    app,
    ability,
    {
      ...at('PUT', '/release/ability/:id'),
      action: 'update',
      params: idParam,
      body: abilityUpdateSchema,
      response: abilitySchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      const [row] = await ctx.tx
        .update(releaseAbilities)
        .set({ ...body, sha256: sha256(body.body), updateBy: by(ctx), updateTime: new Date() })
        .where(and(eq(releaseAbilities.id, params.id), eq(releaseAbilities.status, 'DRAFT')))
        .returning();
      // a published version is frozen: publish a new version instead
      return row ? toAbility(row) : refuseOrMissing(ctx, params.id, ['frozen', 'release.abilityFrozen']);
    },
  );
  for (const [action, from, to] of [
    ['publish', 'DRAFT', 'PUBLISHED'],
    ['deprecate', 'PUBLISHED', 'DEPRECATED'],
  ] as const) {
    typedRoute(
      app,
      ability,
      { ...at('PUT', `/release/ability/:id/${action}`), action, params: idParam, response: abilitySchema, write: true },
      async (ctx, { params }) => {
        const [row] = await ctx.tx
          .update(releaseAbilities)
          .set({ status: to, updateBy: by(ctx), updateTime: new Date() })
          .where(and(eq(releaseAbilities.id, params.id), eq(releaseAbilities.status, from)))
          .returning();
        return row ? toAbility(row) : refuseOrMissing(ctx, params.id, ['transition', 'release.transition']);
      },
    );
  }
}
