import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildTestApp, engines } from '../helper';
import { hostileIds, hostileObject, hostileQuery } from './hostile';
import { apiRoutes, databaseFingerprint, fillParams } from './surface';

// Every registered route gets generated hostile input; CI keeps it short, FUZZ_RUNS makes it long.
const runs = Number(process.env.FUZZ_RUNS ?? 6);
// routes that end or move the fuzzing session itself
const skip = new Set(['POST /api/system/user/logout', 'POST /api/system/user/switchTenant']);

async function signIn(app: Awaited<ReturnType<typeof buildTestApp>>['app'], account: string, password: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account, password } });
  const token = response.json().data?.token as string | undefined;
  if (!token) throw new Error(`sign-in as ${account} failed: ${response.body}`);
  return token;
}

const shapeKeys = (schema: unknown): string[] => {
  const s = schema as { shape?: Record<string, unknown> } | undefined;
  return s?.shape ? Object.keys(s.shape) : [];
};
// the date filters of list queries, by their naming convention
const isDateFilter = (key: string) => /Time(From|To)$/.test(key);

describe.each(engines)('NUL characters and out-of-range dates on every route on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let token: string;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    token = await signIn(ctx.app, 'admin', 'Admin@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers 400 naming the field for a NUL in any body or query field, and for a date outside 1900–9999', async () => {
    const failures: string[] = [];
    let probes = 0;
    for (const route of apiRoutes(ctx.app.routeRegistry).filter((r) => !skip.has(`${r.method} ${r.url}`))) {
      const schema = (route.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType };
      const url = fillParams(route.url, () => '1');
      const send = (input: { query?: Record<string, string>; payload?: Record<string, unknown> }) =>
        ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
          ...input,
        });
      const expectField = (what: string, field: string, response: Awaited<ReturnType<typeof send>>) => {
        probes++;
        const fields = (response.json().data?.fields ?? []).map((f: { field: string }) => f.field);
        if (response.statusCode !== 400 || !fields.includes(field))
          failures.push(`${route.method} ${route.url} ${what} → ${response.statusCode} ${fields}`);
      };
      for (const key of shapeKeys(schema.querystring)) {
        expectField(`?${key}=NUL`, key, await send({ query: { [key]: 'a\u0000b' } }));
        if (isDateFilter(key)) {
          for (const date of ['+275760-09-13', '1899-12-31']) expectField(`?${key}=${date}`, key, await send({ query: { [key]: date } }));
        }
      }
      if (route.method !== 'GET') {
        for (const key of shapeKeys(schema.body)) expectField(`${key}: NUL`, key, await send({ payload: { [key]: 'a\u0000b' } }));
      }
    }
    expect(probes).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });
});

describe.each(engines)('fuzzing every route from its schema on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let token: string;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    token = await signIn(ctx.app, 'admin', 'Admin@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers every hostile request with an envelope and never a 5xx; rejected writes change nothing', async () => {
    // the reads first, then the writes: a write route's fingerprint after is the next one's before
    // when nothing was accepted in between
    const routes = apiRoutes(ctx.app.routeRegistry)
      .filter((r) => !skip.has(`${r.method} ${r.url}`))
      .sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    let unchangedSince: string | null = null;
    for (const route of routes) {
      const schema = (route.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType };
      const isWrite = route.method !== 'GET';
      const before: string = isWrite ? (unchangedSince ?? (await databaseFingerprint(ctx.database))) : '';
      unchangedSince = null;
      let accepted = false;
      await fc.assert(
        fc.asyncProperty(
          hostileObject(schema.body),
          hostileQuery(schema.querystring),
          fc.constantFrom(...hostileIds),
          async (body, query, id) => {
            const url = fillParams(route.url, () => id);
            const response = await ctx.app.inject({
              method: route.method as 'GET',
              url,
              query: Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)),
              headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
              ...(isWrite ? { payload: body as object } : {}),
            });
            if (response.statusCode === 401) {
              // a route ended the fuzzing session; sign in again and say which one
              console.warn(`session ended by ${route.method} ${url}: ${response.body.slice(0, 120)}`);
              token = await signIn(ctx.app, 'admin', 'Admin@123456');
            }
            if (response.statusCode < 300) accepted = true;
            let envelope: { code?: unknown; message?: unknown } | undefined;
            try {
              envelope = response.json();
            } catch {}
            const ok = response.statusCode < 500 && typeof envelope?.code === 'number' && typeof envelope?.message === 'string';
            if (!ok)
              failures.push(
                `${route.method} ${url} → ${response.statusCode} ${response.body.slice(0, 200)} (body ${JSON.stringify(body)?.slice(0, 120)})`,
              );
            return true;
          },
        ),
        { numRuns: runs, seed: 20261122 },
      );
      if (isWrite && !accepted) {
        const after = await databaseFingerprint(ctx.database);
        if (after !== before) failures.push(`${route.method} ${route.url}: rejected writes changed the database`);
        unchangedSince = after;
      }
    }
    expect(failures).toEqual([]);
  });
});
