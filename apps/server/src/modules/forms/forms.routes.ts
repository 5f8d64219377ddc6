import {
  type GroupSettings,
  groupFormDefaults,
  groupFormObjectSchema,
  groupFormSchema,
  groupResource,
  groupSettingsSchema,
  setEntity,
  setResource,
  stepResource,
} from '@atrium/contracts';
import { eq, gte, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { registerEntity } from '../../crud/entity';
import { registerResource } from '../../crud/register-resource';
import { tableRepository } from '../../crud/repository';
import { typedRoute } from '../../crud/typed-route';
import { formGroupSettings, formStepRecords, listSets } from '../../db/schema';
import { serviceRoutes } from './services';

/**
 * The template forms on the tenant's own data: the step form's submissions (a conventional resource on
 * the generic repository) and the group form's parameters (one row per tenant, the defaults until saved);
 * the search table's sets, an entity of the manifest machinery.
 */
export async function formRoutes(app: FastifyInstance) {
  await app.register(serviceRoutes);
  registerEntity(
    app,
    setEntity,
    tableRepository(setResource, listSets, {
      unique: { number: 'list_sets_number_key' },
      filters: {
        number: 'prefix',
        createTimeFrom: { where: (from) => gte(listSets.createTime, from) },
        // a day's date means the whole day
        createTimeTo: { where: (to) => lt(listSets.createTime, to), value: (to: Date) => new Date(to.getTime() + 86_400_000) },
      },
    }),
  );

  registerResource(
    app,
    stepResource,
    tableRepository(stepResource, formStepRecords, {
      // the contract carries an ISO time; the column a timestamp
      beforeWrite: async (_ctx, input) => {
        input.promotionTime = new Date(input.promotionTime as string);
      },
    }),
  );

  typedRoute(
    app,
    groupResource,
    {
      method: 'GET',
      url: '/form/group',
      action: 'query',
      response: groupSettingsSchema,
      summary: "The tenant's video and audio parameters (the defaults until saved)",
    },
    async (ctx) => {
      const [row] = await ctx.tx.select().from(formGroupSettings).where(eq(formGroupSettings.tenantId, ctx.caller.tenantId));
      return settingsOf(row);
    },
  );

  typedRoute(
    app,
    groupResource,
    {
      method: 'PUT',
      url: '/form/group',
      action: 'update',
      body: groupFormSchema,
      response: groupSettingsSchema,
      write: true,
      summary: "Saves the tenant's video and audio parameters",
    },
    async (ctx, { body }) => {
      const values = { data: body, updateBy: ctx.caller.accountId, updateTime: new Date() };
      const [row] = await ctx.tx
        .insert(formGroupSettings)
        .values({ tenantId: ctx.caller.tenantId, ...values })
        .onConflictDoUpdate({ target: formGroupSettings.tenantId, set: values })
        .returning();
      return settingsOf(row);
    },
  );
}

/** A stored row (or none) as the API answers it; a saved set from an older version is completed with the defaults. */
function settingsOf(row: typeof formGroupSettings.$inferSelect | undefined): GroupSettings {
  if (!row) return { ...groupFormDefaults, updateBy: null, updateTime: null };
  const saved = groupFormObjectSchema.partial().safeParse(row.data);
  return {
    ...groupFormDefaults,
    ...(saved.success ? saved.data : {}),
    updateBy: row.updateBy,
    updateTime: row.updateTime.toISOString(),
  };
}
