import {
  type EntityManifest,
  erpEntities,
  goodsEntity,
  manifestPermissions,
  printerEntity,
  printJobEntity,
  setEntity,
  systemEntities,
} from '@atrium/contracts';
import { releaseEntities } from '@atrium/contracts/release-entities';
import { bilingual } from '@atrium/contracts/strings';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportColumns, registeredEntities } from '../src/crud/entity';
import { arena } from './attack/escalation';
import { apiRoutes, databaseFingerprint, fillParams } from './attack/surface';
import { badValues, inputFields, unboundedStrings } from './entity-kit';
import { buildTestApp, engines } from './helper';
import { type Caller, fieldsOf, signIn } from './system/api';

/**
 * Every entity of the manifests, with no hand-written test of its own: bad input on every field, every
 * route without its permission, and another tenant's ids. A manifest the server registers and this list
 * leaves out fails the first test of each engine.
 */
const manifests = [...systemEntities, ...erpEntities, ...releaseEntities, goodsEntity, printerEntity, printJobEntity, setEntity];
const nameOf = (m: EntityManifest) => `${m.resource.domain}:${m.resource.name}`;
/** The URL of one of a resource's routes (`paths` names the spec's exact ones: the users'). */
const pathOf = (m: EntityManifest, action: 'list' | 'query' | 'create' | 'update' | 'delete' | 'export', id?: number) =>
  `/api${m.resource.paths[action].replace(':id', String(id))}`;

/** A row made through the API for an entity the demo tenant has none of (goods, print jobs). */
const samples: Record<string, (owner: Caller) => Promise<void>> = {
  'release:project': async (owner) => {
    expect((await owner.post('/api/release/project', { key: 'kit', name: 'Kit' })).status).toBe(200);
  },
  'release:env': async (owner) => {
    const env = await owner.post('/api/release/env', {
      key: 'kit',
      name: 'Kit',
      variables: [{ name: 'TOKEN', value: 'kit', secret: true }],
    });
    expect(env.status).toBe(200);
  },
  'release:process': async (owner) => {
    const ability = await owner.post('/api/release/ability', {
      key: 'kit',
      name: 'Kit',
      runtime: 'shell',
      body: 'echo kit',
      timeoutSec: 60,
    });
    const [project] = (await owner.get('/api/release/project?pageSize=1')).body.data.list as { id: number }[];
    const process = await owner.post('/api/release/process', {
      name: 'Kit',
      projectId: project?.id,
      steps: [{ abilityId: ability.body.data.id }],
    });
    expect(process.status).toBe(200);
  },
  'release:client': async (owner) => {
    // an agent enrols itself with a one-time token the tenant made
    const { token } = (await owner.post('/api/release/client/enrol-token', {})).body.data as { token: string };
    expect((await owner.post('/api/release/client/enrol', { token, hostname: 'kit', os: 'linux' })).status).toBe(200);
  },
  'release:task': async (owner) => {
    // a published ability's process started on an unprotected environment: queued, no agent runs it
    const ability = await owner.post('/api/release/ability', { key: 'kittask', name: 'Kit', body: 'echo kit', timeoutSec: 60 });
    expect((await owner.put(`/api/release/ability/${ability.body.data.id}/publish`, {})).status).toBe(200);
    const [project] = (await owner.get('/api/release/project?pageSize=1')).body.data.list as { id: number }[];
    const envs = (await owner.get('/api/release/env?pageSize=200')).body.data.list as { id: number; protected: boolean }[];
    const env = envs.find((e) => !e.protected) ?? (await owner.post('/api/release/env', { key: 'kittask', name: 'Kit' })).body.data;
    const process = await owner.post('/api/release/process', {
      name: 'Kit task',
      projectId: project?.id,
      steps: [{ abilityId: ability.body.data.id }],
    });
    const task = await owner.post('/api/release/task', {
      projectId: project?.id,
      envId: env.id,
      processId: process.body.data.id,
      version: '1.0',
    });
    expect(task.status).toBe(200);
  },
  'release:userProject': async (owner) => {
    const [user] = (await owner.get('/api/system/user/user?pageSize=1')).body.data.list as { id: number }[];
    const [project] = (await owner.get('/api/release/project?pageSize=1')).body.data.list as { id: number }[];
    const grant = await owner.post('/api/release/user-project', { userId: user?.id, projectId: project?.id, level: 'VIEWER' });
    expect(grant.status).toBe(200);
  },
  'mall:goods': async (owner) => {
    const [product] = (await owner.get('/api/erp/product?pageSize=1')).body.data.list as { id: number }[];
    expect((await owner.post('/api/mall/goods', { productId: product?.id })).status).toBe(200);
  },
  'mall:printJob': async (owner) => {
    // to a cloud printer whose vendor account is not set: the job fails at once and the outbox is done
    // with it, so no background work changes the database under the tests' fingerprints
    const printer = await owner.post('/api/mall/printer', {
      name: 'Kit',
      vendor: 'feie',
      sn: `KIT${Date.now().toString(36)}`,
      deviceKey: 'kit-device-key',
      paperWidth: 58,
      triggers: [],
    });
    expect(printer.status).toBe(200);
    const job = await owner.post(`/api/mall/printer/${printer.body.data.id}/test`, {});
    expect(job.status).toBe(200);
    for (let i = 0; i < 600 && (await owner.get(`/api/mall/print-job/${job.body.data.id}`)).body.data.status === 'PENDING'; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  },
};

const exported = manifests.filter((m) => m.resource.has('export'));

describe('entity contracts', () => {
  it('bound every input string with a maximum length', () => {
    expect(manifests.flatMap(unboundedStrings)).toEqual([]);
  });

  // headers and option words (a field of codes writes the label registry's words)
  it('have words in both languages for every column their Excel export writes', () => {
    const untranslated = exported.flatMap((m) =>
      (m.fields ?? [])
        .filter((f) => f.column !== false)
        .flatMap((f) => [f.label, ...(f.codes ? [] : (f.options ?? []).map((o) => o.label))])
        .filter((key) => Object.values(bilingual(key)).includes(key))
        .map((key) => `${nameOf(m)} ${key}`),
    );
    expect(untranslated).toEqual([]);
  });
});

describe.each(engines)('entity kit on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let owner: Caller;
  let intruder: Caller;
  let superAdmin: Caller;
  let powerless: Caller;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    owner = await signIn(ctx, 'acme', 'Acme@123456');
    intruder = await signIn(ctx, 'admin', 'Admin@123456');
    // the demo's admin is the platform's super admin too
    superAdmin = intruder;
    // a user of the admin's tenant holding no permission at all
    powerless = (await (await arena(ctx)).limited([])).caller;
    // every entity has a row in the owner's tenant: updates get their bad input, other tenants their ids
    // (a global catalogue's rows belong to no tenant: the demo seeds them)
    for (const m of manifests)
      if (!m.resource.global && (await owner.get(`${pathOf(m, 'list')}?pageSize=1`)).body.data.total === 0)
        await samples[nameOf(m)]?.(owner);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('covers every manifest the server registers', () => {
    expect(registeredEntities().map(nameOf).sort()).toEqual(manifests.map(nameOf).sort());
  });

  it.each(manifests.map((m) => [`${m.resource.domain}:${m.resource.name}`, m] as const))(
    '%s: bad input on every field is a 400 naming it, and nothing is written',
    async (_name, m) => {
      // a global catalogue is written by the super admin (the demo's admin), anything else by the tenant's owner
      const writer = m.resource.global ? superAdmin : owner;
      const [first] = (await writer.get(`${pathOf(m, 'list')}?pageSize=1`)).body.data.list as { id: number }[];
      const before = await databaseFingerprint(ctx.database);
      const failures: string[] = [];
      const writes = [
        ...(m.resource.actions.includes('create') ? [['POST', inputFields(m, 'create')] as const] : []),
        ...(m.resource.actions.includes('update') && first ? [['PUT', inputFields(m, 'update')] as const] : []),
      ];
      for (const [method, fields] of writes) {
        for (const field of fields) {
          for (const bad of badValues(field)) {
            const body = { [field.field]: bad.value };
            const answer =
              method === 'POST' ? await writer.post(pathOf(m, 'create'), body) : await writer.put(pathOf(m, 'update', first?.id), body);
            const named = fieldsOf(answer.body);
            if (answer.status !== 400 || !named.some((f) => f === bad.field || f.startsWith(`${bad.field}.`)))
              failures.push(`${method} ${pathOf(m, 'list')} ${field.field} (${bad.what}) → ${answer.status} naming [${named}]`);
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

  const granted = manifests.filter((m) => m.resource.grant);
  it.each(granted.map((m) => [nameOf(m), m] as const))(
    '%s: decided by grants, not role permissions: a caller of the tenant with none lists nothing, reads no row (404) and starts nothing (403)',
    async (_name, m) => {
      // the rows of the admin's tenant, the powerless caller's own
      const [row] = (await intruder.get(`${pathOf(m, 'list')}?pageSize=1`)).body.data.list as { id: number }[];
      expect(row, `the admin's tenant has a ${m.resource.name}`).toBeDefined();
      const listed = await powerless.get(pathOf(m, 'list'));
      expect([listed.status, listed.body.data.total]).toEqual([200, 0]);
      if (m.resource.has('query')) expect((await powerless.get(pathOf(m, 'query', row?.id))).status).toBe(404);
      // a row of the caller's own tenant as the body: valid, so only the caller's grants can refuse it
      if (m.resource.has('create')) {
        const before = await databaseFingerprint(ctx.database);
        const body = m.resource.has('query') ? (await intruder.get(pathOf(m, 'query', row?.id))).body.data : row;
        expect((await powerless.post(pathOf(m, 'create'), body)).status).toBe(403);
        expect(await databaseFingerprint(ctx.database)).toBe(before);
      }
    },
  );

  it.each(exported.map((m) => [nameOf(m), m] as const))(
    '%s: the Excel export has the list columns, headed in the requester’s language',
    async (_name, m) => {
      for (const [language, word] of [
        ['zh-CN', 'zh'],
        ['en-US', 'en'],
      ] as const) {
        const answer = await ctx.app.inject({
          url: pathOf(m, 'export'),
          headers: { authorization: `Bearer ${owner.token}`, 'accept-language': language },
        });
        expect(answer.statusCode).toBe(200);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
        const sheet = workbook.worksheets[0];
        const header = ((sheet?.getRow(1).values ?? []) as unknown[]).slice(1);
        expect(header).toEqual(exportColumns(m.fields ?? []).map((c) => (word === 'zh' ? c.zh : c.header)));
        expect(sheet?.rowCount).toBeGreaterThan(1);
      }
    },
  );

  const global = manifests.filter((m) => m.resource.global);
  it.each(global.map((m) => [nameOf(m), m] as const))(
    '%s: a global catalogue is the super admin’s to write: a tenant’s owner is refused (403) and it stays as it was',
    async (_name, m) => {
      const [row] = (await superAdmin.get(`${pathOf(m, 'list')}?pageSize=1`)).body.data.list as { id: number }[];
      expect(row, `the demo has a ${m.resource.name}`).toBeDefined();
      const id = (row as { id: number }).id;
      const before = (await superAdmin.get(pathOf(m, 'query', id))).body.data;
      const writes = [
        ...(m.resource.actions.includes('create') ? [['post', () => owner.post(pathOf(m, 'create'), before)] as const] : []),
        ...(m.resource.actions.includes('update') ? [['put', () => owner.put(pathOf(m, 'update', id), before)] as const] : []),
        ...(m.resource.actions.includes('delete') ? [['delete', () => owner.del(pathOf(m, 'delete', id))] as const] : []),
      ];
      const fingerprint = await databaseFingerprint(ctx.database);
      const answers: string[] = [];
      for (const [what, call] of writes) answers.push(`${what} ${(await call()).status}`);
      expect(answers).toEqual(writes.map(([what]) => `${what} 403`));
      expect(await databaseFingerprint(ctx.database)).toBe(fingerprint);
      expect((await superAdmin.get(pathOf(m, 'query', id))).body.data).toEqual(before);
    },
  );

  it.each(manifests.filter((m) => !m.resource.global).map((m) => [`${m.resource.domain}:${m.resource.name}`, m] as const))(
    "%s: another tenant's row is a 404 to read, update and delete, and stays as it was",
    async (_name, m) => {
      const [row] = (await owner.get(`${pathOf(m, 'list')}?pageSize=1`)).body.data.list as { id: number }[];
      expect(row, `the demo tenant has a ${m.resource.name}`).toBeDefined();
      const id = (row as { id: number }).id;
      // one row as the owner reads it: by its own route, or in the list where it has none (the release projects)
      const read = async () =>
        m.resource.has('query')
          ? (await owner.get(pathOf(m, 'query', id))).body.data
          : ((await owner.get(`${pathOf(m, 'list')}?pageSize=200`)).body.data.list as { id: number }[]).find((r) => r.id === id);
      const before = await read();
      expect(before).toBeDefined();
      // the owner's own row as the body: valid in the owner's tenant, so only the lookup can refuse it
      // the methods the resource has (a read-only one has no PUT or DELETE to try, a list of sessions no GET of one)
      const methods = [
        ...(m.resource.actions.includes('query') ? [['get', (at: number) => intruder.get(pathOf(m, 'query', at))] as const] : []),
        ...(m.resource.actions.includes('update') ? [['put', (at: number) => intruder.put(pathOf(m, 'update', at), before)] as const] : []),
        ...(m.resource.actions.includes('delete') ? [['delete', (at: number) => intruder.del(pathOf(m, 'delete', at))] as const] : []),
      ];
      const answers: string[] = [];
      for (const [what, call] of methods) answers.push(`${what} ${(await call(id)).status}`);
      // ids come from one sequence per table, so the owner's id names no row of the intruder's tenant
      expect(answers).toEqual(methods.map(([what]) => `${what} 404`));
      expect(await read()).toEqual(before);
      // an id that exists in no tenant is a 404 for every method
      const absent = 987_654_321;
      const misses: number[] = [];
      for (const [, call] of methods) misses.push((await call(absent)).status);
      expect(misses).toEqual(methods.map(() => 404));
    },
  );
});
