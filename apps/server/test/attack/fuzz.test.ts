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
    const routes = apiRoutes(ctx.app.routeRegistry).filter((r) => !skip.has(`${r.method} ${r.url}`));
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const route of routes) {
      const schema = (route.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType };
      const isWrite = route.method !== 'GET';
      const before = isWrite ? await databaseFingerprint(ctx.database) : '';
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
      }
    }
    expect(failures).toEqual([]);
  });
});
