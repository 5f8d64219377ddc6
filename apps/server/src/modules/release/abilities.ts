import type { abilityCreateSchema } from '@atrium/contracts/release';
import { idParam } from '@atrium/contracts/release';
import { abilityEntity } from '@atrium/contracts/release-entities';
import { abilitySchema } from '@atrium/contracts/release-items';
import { and, eq, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { registerTable } from '../../crud/entity';
import { typedRoute } from '../../crud/typed-route';
import { releaseAbilities } from '../../db/schema';
import { notFound } from '../../errors';
import { at, by, strip } from './access';
import { sha256 } from './engine';

type AbilityRow = typeof releaseAbilities.$inferSelect;

/** A published version is frozen, a transition moves from one status only: 409 for a row that is there, else 404. */
async function refuseOrMissing(ctx: Ctx, id: number, reason: [rule: string, key: string]): Promise<never> {
  const [exists] = await ctx.tx.select({ id: releaseAbilities.id }).from(releaseAbilities).where(eq(releaseAbilities.id, id));
  throw exists ? refused('status', ...reason) : notFound();
}

/**
 * Abilities: versioned shell scripts. The manifest's routes over the table: a key seen before starts its
 * next version (the first is 1), only a draft is edited — a published version is frozen, a new version
 * replaces it — and publishing and deprecating move a version on from one status only.
 */
export function abilityRoutes(app: FastifyInstance) {
  registerTable(app, abilityEntity, releaseAbilities, {
    filters: { key: 'prefix' },
    // two first versions of one key made at once: the second is a 409 naming the key
    raced: { release_abilities_key_version_key: 'key' },
    beforeWrite: async (ctx, input, id) => {
      const body = input as z.output<typeof abilityCreateSchema>;
      if (id !== undefined) {
        const [stored] = await ctx.tx
          .select({ status: releaseAbilities.status })
          .from(releaseAbilities)
          .where(eq(releaseAbilities.id, id))
          .for('update');
        // a published version is frozen: publish a new version instead
        if (stored?.status !== 'DRAFT') await refuseOrMissing(ctx, id, ['frozen', 'release.abilityFrozen']);
        return { sha256: sha256(body.body) };
      }
      const [{ last } = { last: null }] = await ctx.tx
        .select({ last: max(releaseAbilities.version) })
        .from(releaseAbilities)
        .where(eq(releaseAbilities.key, body.key));
      return { version: (last ?? 0) + 1, sha256: sha256(body.body), status: 'DRAFT' };
    },
  });
  for (const [action, from, to] of [
    ['publish', 'DRAFT', 'PUBLISHED'],
    ['deprecate', 'PUBLISHED', 'DEPRECATED'],
  ] as const) {
    typedRoute(
      app,
      abilityEntity.resource,
      { ...at('PUT', `/release/ability/:id/${action}`), action, params: idParam, response: abilitySchema, write: true },
      async (ctx, { params }) => {
        const [row] = await ctx.tx
          .update(releaseAbilities)
          .set({ status: to, updateBy: by(ctx), updateTime: new Date() })
          .where(and(eq(releaseAbilities.id, params.id), eq(releaseAbilities.status, from)))
          .returning();
        return row
          ? (strip(row as AbilityRow) as z.output<typeof abilitySchema>)
          : refuseOrMissing(ctx, params.id, ['transition', 'release.transition']);
      },
    );
  }
}
