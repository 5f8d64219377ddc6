import { serializerCompiler as zodSerializer } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledSerializer } from '../src/plugins/external/serializer';
import { buildTestApp } from './helper';
import { type Caller, signIn } from './system/api';

const serializerOf = (compiler: typeof compiledSerializer, schema: z.ZodType) =>
  compiler({ schema, method: 'GET', url: '/t', httpStatus: '200' } as Parameters<typeof compiledSerializer>[0]);

describe('compiled response serializer', () => {
  it('writes what zod would: only named properties, nulls, defaults, unknown values, untouched date strings', () => {
    const schema = z.object({
      id: z.number().int(),
      name: z.string().nullable(),
      at: z.iso.datetime(),
      tags: z.array(z.string()),
      extra: z.unknown(),
      status: z.enum(['0', '1']).default('0'),
      nested: z.object({ a: z.number() }).nullable(),
    });
    const data = {
      id: 7,
      name: null,
      at: '2026-11-23T10:00:00.000Z',
      tags: ['a', '"quoted"'],
      extra: { deep: [1] },
      nested: { a: 1, b: 2 },
      leak: 'x',
    };
    const compiled = serializerOf(compiledSerializer, schema)(data);
    expect(JSON.parse(compiled)).toEqual(JSON.parse(serializerOf(zodSerializer as typeof compiledSerializer, schema)(data)));
    expect(compiled).not.toContain('leak');
    expect(JSON.parse(serializerOf(compiledSerializer, schema)({ ...data, extra: undefined })).extra).toBeUndefined();
  });

  it('keeps zod for a schema with no JSON Schema (a transform)', () => {
    const schema = z.object({ n: z.string().transform((s) => s.length) });
    expect(serializerOf(compiledSerializer, schema)({ n: 'abc' })).toBe('{"n":3}');
  });
});

// the serializer does not depend on the engine
describe('every list and detail answer of the API, as written, is what its zod schema gives back', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;

  beforeAll(async () => {
    ctx = await buildTestApp('pglite', { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('for each GET route with a JSON answer (lists, then one row of each)', async () => {
    const gets = ctx.app.routeRegistry.filter(
      (r) => r.method === 'GET' && r.url.startsWith('/api/') && (r.schema?.response as Record<string, unknown> | undefined)?.[200],
    );
    const okSchema = (route: (typeof gets)[number]) =>
      (route.schema?.response as Record<string, z.ZodType> | undefined)?.[200] as z.ZodType;
    const checked: string[] = [];
    const firstIds = new Map<string, number>();
    const check = async (url: string, schema: z.ZodType) => {
      const answer = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin.token}` } });
      if (answer.statusCode !== 200 || !String(answer.headers['content-type']).includes('json')) return;
      const written = JSON.parse(answer.body);
      expect(JSON.parse(serializerOf(zodSerializer as typeof compiledSerializer, schema)(written)), url).toEqual(written);
      checked.push(url);
      return written as { data?: { list?: { id?: number }[] } };
    };
    for (const route of gets.filter((r) => !r.url.includes(':'))) {
      const body = await check(route.url, okSchema(route));
      const id = body?.data?.list?.[0]?.id;
      if (typeof id === 'number') firstIds.set(route.url, id);
    }
    for (const route of gets.filter((r) => /\/:id$/.test(r.url))) {
      const id = firstIds.get(route.url.replace(/\/:id$/, '')) ?? firstIds.get(route.url.replace(/\/:id$/, '/list'));
      if (id === undefined) continue;
      await check(route.url.replace(':id', String(id)), okSchema(route));
    }
    // users, roles, departments, posts, menus, notices, logs, ERP lists and their rows at least
    expect(checked.length).toBeGreaterThan(30);
    expect(checked.some((u) => /\/api\/system\/user\/user\/\d+$/.test(u))).toBe(true);
  });
});
