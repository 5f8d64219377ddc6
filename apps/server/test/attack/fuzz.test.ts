import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type buildTestApp, engines, oneEngine, suiteApp } from '../helper';
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

type ZodNode = { _zod?: { def?: { type?: string; format?: string; innerType?: unknown; in?: unknown; options?: unknown[] } } };
/** The ISO formats ('date', 'datetime') a body field's schema accepts, through optional, nullable, unions and pipes. */
function dateFormats(schema: unknown, depth = 0): string[] {
  const def = (schema as ZodNode | undefined)?._zod?.def;
  if (!def || depth > 8) return [];
  if (def.format === 'date' || def.format === 'datetime') return [def.format];
  const inner = [def.innerType, def.in, ...(def.options ?? [])].filter((s) => s !== undefined);
  return inner.flatMap((s) => dateFormats(s, depth + 1));
}
const shapeOf = (schema: unknown) => (schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
// years outside 1900–9999, the first and last not even PostgreSQL's
const outOfRange = { date: ['0000-01-01', '1899-12-31', '+275760-09-13'], datetime: ['0000-06-01T00:00:00Z', '1899-12-31T23:59:59+00:00'] };

describe.each(engines)('NUL characters, lone surrogates and out-of-range dates on every route on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let token: string;

  suiteApp(engine, async (built) => {
    ctx = built;
    token = await signIn(ctx.app, 'admin', 'Admin@123456');
  });

  it('answers 400 naming the field for a NUL in any body or query field, a lone surrogate in any body field (nested and in keys too), and for a date outside 1900–9999', async () => {
    const failures: string[] = [];
    let probes = 0;
    let dateFields = 0;
    for (const route of apiRoutes(ctx.app.routeRegistry).filter((r) => !skip.has(`${r.method} ${r.url}`))) {
      const schema = (route.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType };
      const url = fillParams(route.url, () => '1');
      const send = (input: { query?: Record<string, string>; payload?: Record<string, unknown> }) =>
        ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
          // each probe from an address of its own: the per-address limits of the sign-in and contact
          // routes would otherwise answer 429 before the input is looked at
          remoteAddress: `10.9.${Math.floor(probes / 250)}.${probes % 250}`,
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
        for (const key of shapeKeys(schema.body)) {
          expectField(`${key}: NUL`, key, await send({ payload: { [key]: 'a\u0000b' } }));
          // valid JSON ("\udc00x"), but not Unicode text: as a value, in a list, as an object's key
          expectField(`${key}: lone surrogate`, key, await send({ payload: { [key]: '\udc00x' } }));
          expectField(`${key}: [lone surrogate]`, `${key}.0`, await send({ payload: { [key]: ['\udc00x'] } }));
          expectField(`${key}: {lone surrogate: …}`, key, await send({ payload: { [key]: { '\ud800k': 'v' } } }));
          for (const format of dateFormats(shapeOf(schema.body)[key])) {
            for (const date of outOfRange[format as 'date']) expectField(`${key}: ${date}`, key, await send({ payload: { [key]: date } }));
          }
        }
        dateFields += Object.values(shapeOf(schema.body)).filter((f) => dateFormats(f).length > 0).length;
      }
    }
    expect(probes).toBeGreaterThan(50);
    // ERP activities, the step form, members, tenants: the date fields are found, not listed
    expect(dateFields).toBeGreaterThanOrEqual(5);
    expect(failures).toEqual([]);
  });
});

describe.each(oneEngine)('fuzzing every route from its schema on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let token: string;

  suiteApp(engine, async (built) => {
    ctx = built;
    token = await signIn(ctx.app, 'admin', 'Admin@123456');
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
      const schema = (route.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType; response?: Record<number, unknown> };
      // a browser's way in (single sign-on) answers a redirect, as its schema declares, instead of an
      // envelope: one to a path of this site (no tenant here has a provider, so none leaves it)
      const redirects = schema.response?.[302] !== undefined;
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
            const location = response.headers.location;
            const redirected = redirects && response.statusCode === 302 && typeof location === 'string' && /^\/(?![/\\])/.test(location);
            const ok =
              redirected || (response.statusCode < 500 && typeof envelope?.code === 'number' && typeof envelope?.message === 'string');
            if (!ok)
              failures.push(
                `${route.method} ${url} → ${response.statusCode} ${location ?? ''}${response.body.slice(0, 200)} (body ${JSON.stringify(body)?.slice(0, 120)})`,
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
