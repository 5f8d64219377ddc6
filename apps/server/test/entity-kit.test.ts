import { erpEntities, manifestPermissions } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arena } from './attack/escalation';
import { apiRoutes, databaseFingerprint, fillParams } from './attack/surface';
import { badValues, inputFields, unboundedStrings } from './entity-kit';
import { buildTestApp, engines } from './helper';
import { type Caller, fieldsOf, signIn } from './system/api';

/**
 * Every entity of the manifests, with no hand-written test of its own: bad input on every field, every
 * route without its permission, and another tenant's ids. A new entity in a manifest list is covered.
 */
const manifests = [...erpEntities];

describe('entity contracts', () => {
  it('bound every input string with a maximum length', () => {
    expect(manifests.flatMap(unboundedStrings)).toEqual([]);
  });
});

describe.each(engines)('entity kit on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let owner: Caller;
  let intruder: Caller;
  let powerless: Caller;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    owner = await signIn(ctx, 'acme', 'Acme@123456');
    intruder = await signIn(ctx, 'admin', 'Admin@123456');
    // a user of the admin's tenant holding no permission at all
    powerless = (await (await arena(ctx)).limited([])).caller;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it.each(manifests.map((m) => [`${m.resource.domain}:${m.resource.name}`, m] as const))(
    '%s: bad input on every field is a 400 naming it, and nothing is written',
    async (_name, m) => {
      const [first] = (await owner.get(`/api${m.resource.basePath}?pageSize=1`)).body.data.list as { id: number }[];
      const before = await databaseFingerprint(ctx.database);
      const failures: string[] = [];
      for (const field of inputFields(m)) {
        for (const bad of badValues(field)) {
          const body = { [field.field]: bad.value };
          const answers = [
            ['POST', await owner.post(`/api${m.resource.basePath}`, body)],
            ...(m.resource.actions.includes('update') && first
              ? [['PUT', await owner.put(`/api${m.resource.basePath}/${first.id}`, body)] as const]
              : []),
          ] as const;
          for (const [method, answer] of answers) {
            const named = fieldsOf(answer.body);
            if (answer.status !== 400 || !named.some((f) => f === bad.field || f.startsWith(`${bad.field}.`)))
              failures.push(`${method} ${m.resource.basePath} ${field.field} (${bad.what}) → ${answer.status} naming [${named}]`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await databaseFingerprint(ctx.database)).toBe(before);
    },
  );

  it.each(manifests.map((m) => [`${m.resource.domain}:${m.resource.name}`, m] as const))(
    '%s: every permission guards a route, and each route refuses a caller without it (403)',
    async (_name, m) => {
      const routes = apiRoutes(ctx.app.routeRegistry);
      const failures: string[] = [];
      for (const permission of manifestPermissions(m)) {
        const guarded = routes.filter((r) => r.config.permission === permission);
        if (!guarded.length) failures.push(`${permission}: no route`);
        for (const route of guarded) {
          const url = fillParams(route.url, () => '1');
          const method = route.method.toLowerCase() as 'get' | 'post' | 'put';
          const answer =
            route.method === 'DELETE'
              ? await powerless.del(url)
              : method === 'get'
                ? await powerless.get(url)
                : await powerless[method](url, {});
          if (answer.status !== 403) failures.push(`${route.method} ${route.url} → ${answer.status}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it.each(manifests.map((m) => [`${m.resource.domain}:${m.resource.name}`, m] as const))(
    "%s: another tenant's row is a 404 to read, update and delete, and stays as it was",
    async (_name, m) => {
      const base = `/api${m.resource.basePath}`;
      const [row] = (await owner.get(`${base}?pageSize=1`)).body.data.list as { id: number }[];
      expect(row, `the demo tenant has a ${m.resource.name}`).toBeDefined();
      const id = (row as { id: number }).id;
      const before = (await owner.get(`${base}/${id}`)).body.data;
      // the owner's own row as the body: valid in the owner's tenant, so only the lookup can refuse it
      const answers = {
        get: await intruder.get(`${base}/${id}`),
        put: await intruder.put(`${base}/${id}`, before),
        delete: await intruder.del(`${base}/${id}`),
      };
      // ids come from one sequence per table, so the owner's id names no row of the intruder's tenant
      expect(Object.entries(answers).map(([what, a]) => `${what} ${a.status}`)).toEqual(['get 404', 'put 404', 'delete 404']);
      expect((await owner.get(`${base}/${id}`)).body.data).toEqual(before);
      // an id that exists in no tenant is a 404 for every method
      const absent = 987_654_321;
      const misses = [
        await intruder.get(`${base}/${absent}`),
        await intruder.put(`${base}/${absent}`, before),
        await intruder.del(`${base}/${absent}`),
      ].map((a) => a.status);
      expect(misses).toEqual([404, 404, 404]);
    },
  );
});
