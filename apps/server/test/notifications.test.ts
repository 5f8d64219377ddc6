import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/client';
import { depts, notifications, roles, tenants, tenantUsers } from '../src/db/schema';
import { engines } from './helper';
import { activeUsers, buildRealtimeApp, type SignedIn, signIn } from './realtime-helpers';

describe.each(engines)('notifications and notices API on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildRealtimeApp>>;
  let admin: SignedIn;
  let user: SignedIn;
  let acme: SignedIn;
  let acmeTenantId: number;

  const inject = (who: SignedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    ctx.app.inject({ method, url, headers: who.auth, payload });
  const myBox = async (who: SignedIn, query = '') => (await inject(who, 'GET', `/api/system/notification${query}`)).json();
  const send = (body: Record<string, unknown>, who = admin) => inject(who, 'POST', '/api/system/notice', body);

  beforeAll(async () => {
    ctx = await buildRealtimeApp(engine);
    admin = await signIn(ctx.app, 'admin', 'Admin@123456', 'hq');
    user = await signIn(ctx.app, 'user', 'User@123456');
    acme = await signIn(ctx.app, 'acme', 'Acme@123456');
    const [row] = await ctx.app.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'acme'));
    acmeTenantId = (row as { id: number }).id;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('stores a notice for its recipient, who reads it with unread counts per type', async () => {
    const sent = await send({ title: 'Quarterly review', content: 'Friday 10:00', scope: 'users', targetIds: [user.userId] });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ code: 200, data: { recipients: 1 } });

    const box = await myBox(user);
    expect(box.code).toBe(200);
    expect(box.data).toMatchObject({ total: 1, pageNum: 1, pageSize: 20, unread: { message: 0, notice: 1, todo: 0 } });
    expect(box.data.list[0]).toMatchObject({
      type: 'notice',
      title: 'Quarterly review',
      content: 'Friday 10:00',
      read: false,
      sender: 'Administrator',
      link: null,
    });
    expect(Object.keys(box.data.list[0]).sort()).toEqual(['content', 'createTime', 'id', 'link', 'read', 'sender', 'title', 'type']);
    // the sender did not send it to themselves
    expect((await myBox(admin)).data.total).toBe(0);
  });

  it('filters by type and read, pages, and marks read one or all', async () => {
    await ctx.app.notify({ tenantId: user.tenantId, accountRefs: [user.accountRef], type: 'message', title: 'm1' });
    await ctx.app.notify({ tenantId: user.tenantId, accountRefs: [user.accountRef], type: 'todo', title: 't1' });
    await ctx.app.notify({ tenantId: user.tenantId, accountRefs: [user.accountRef], type: 'todo', title: 't2' });
    expect((await myBox(user)).data.unread).toEqual({ message: 1, notice: 1, todo: 2 });
    expect((await myBox(user, '?type=todo')).data.list.map((n: { title: string }) => n.title)).toEqual(['t2', 't1']);
    const page2 = (await myBox(user, '?pageNum=2&pageSize=3')).data;
    expect(page2).toMatchObject({ total: 4, pageNum: 2, pageSize: 3 });
    expect(page2.list).toHaveLength(1);

    const [t2] = (await myBox(user, '?type=todo')).data.list;
    expect((await inject(user, 'PUT', `/api/system/notification/${t2.id}/read`)).json()).toMatchObject({ code: 200 });
    expect((await myBox(user, '?read=true')).data.list.map((n: { title: string }) => n.title)).toEqual(['t2']);
    expect((await myBox(user, '?read=false&type=todo')).data.list.map((n: { title: string }) => n.title)).toEqual(['t1']);

    const todos = await inject(user, 'PUT', '/api/system/notification/read-all?type=todo');
    expect(todos.json()).toMatchObject({ code: 200, data: { updated: 1 } });
    expect((await myBox(user)).data.unread).toEqual({ message: 1, notice: 1, todo: 0 });
    expect((await inject(user, 'PUT', '/api/system/notification/read-all')).json().data.updated).toBe(2);
    expect((await myBox(user)).data.unread).toEqual({ message: 0, notice: 0, todo: 0 });

    const deleted = await inject(user, 'DELETE', `/api/system/notification/${t2.id}`);
    expect(deleted.json()).toMatchObject({ code: 200 });
    expect((await myBox(user)).data.total).toBe(3);
    expect((await inject(user, 'DELETE', `/api/system/notification/${t2.id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another account's and another tenant's notifications, and changes nothing", async () => {
    const mine = await ctx.app.notify({ tenantId: admin.tenantId, accountRefs: [admin.accountRef], type: 'message', title: 'admin only' });
    const elsewhere = await ctx.app.notify({
      tenantId: acmeTenantId,
      accountRefs: [admin.accountRef, acme.accountRef],
      type: 'message',
      title: 'acme',
    });
    expect(elsewhere.recipients).toBe(2);
    for (const id of [mine.ids[0], ...elsewhere.ids]) {
      for (const [method, url] of [
        ['PUT', `/api/system/notification/${id}/read`],
        ['DELETE', `/api/system/notification/${id}`],
      ] as const) {
        const response = await inject(user, method, url);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().code).toBe(404);
      }
    }
    // admin, signed in to hq, does not see (or touch) what it has in acme
    const adminBox = (await myBox(admin)).data;
    expect(adminBox.list.map((n: { title: string }) => n.title)).toEqual(['admin only']);
    expect((await inject(admin, 'PUT', `/api/system/notification/${elsewhere.ids[0]}/read`)).statusCode).toBe(404);
    const stillUnread = await withTenant(ctx.app.database.db, acmeTenantId, (tx) =>
      tx.select({ read: notifications.read }).from(notifications).where(eq(notifications.tenantId, acmeTenantId)),
    );
    expect(stillUnread.every((n) => !n.read)).toBe(true);
    expect((await myBox(acme)).data.list.map((n: { title: string }) => n.title)).toContain('acme');
  });

  it('rejects bad input with 400 naming the field', async () => {
    for (const query of ['?type=bogus', '?read=maybe', '?pageSize=100000', '?pageNum=0', "?type=notice'%20or%201=1--"]) {
      const response = await inject(user, 'GET', `/api/system/notification${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe(40001);
    }
    for (const id of ['abc', '1%20or%201=1', '-1', '0', '99999999999999999999']) {
      expect((await inject(user, 'PUT', `/api/system/notification/${id}/read`)).statusCode, id).toBe(400);
    }
    const bad = [
      [{ title: '', scope: 'tenant' }, 'title'],
      [{ title: 'x'.repeat(201), scope: 'tenant' }, 'title'],
      [{ title: 'ok', scope: 'everyone' }, 'scope'],
      [{ title: 'ok', scope: 'role' }, 'targetIds'],
      [{ title: 'ok', scope: 'users', targetIds: ['1'] }, 'targetIds.0'],
      [{ title: 'ok', scope: 'tenant', type: 'alert' }, 'type'],
      [{ title: 'ok', scope: 'users', targetIds: [999_999] }, 'targetIds.0'],
    ] as const;
    for (const [body, field] of bad) {
      const response = await send(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().data.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });

  it('refuses targets of another tenant as unknown, and stores nothing', async () => {
    const [acmeRole] = await withTenant(ctx.app.database.db, acmeTenantId, (tx) =>
      tx.select({ id: roles.id }).from(roles).where(eq(roles.tenantId, acmeTenantId)),
    );
    const [acmeUser] = await withTenant(ctx.app.database.db, acmeTenantId, (tx) =>
      tx.select({ id: tenantUsers.id }).from(tenantUsers).where(eq(tenantUsers.accountRef, acme.accountRef)),
    );
    const before = (await inject(admin, 'GET', '/api/system/notice')).json().data.total;
    for (const [scope, id] of [
      ['role', acmeRole?.id],
      ['users', acmeUser?.id],
    ] as const) {
      const response = await send({ title: 'cross-tenant', scope, targetIds: [id] });
      expect(response.statusCode, scope).toBe(400);
    }
    expect((await inject(admin, 'GET', '/api/system/notice')).json().data.total).toBe(before);
    expect((await myBox(acme)).data.list.map((n: { title: string }) => n.title)).not.toContain('cross-tenant');
  });

  it('reaches a role, and a department with the ones below it', async () => {
    const [userRole] = await withTenant(ctx.app.database.db, user.tenantId, (tx) =>
      tx
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.tenantId, user.tenantId), eq(roles.code, 'user'))),
    );
    const byRole = await send({ title: 'to the user role', scope: 'role', targetIds: [userRole?.id] });
    const roleMembers = await activeUsers(ctx.app, user.tenantId, userRole?.id);
    expect(roleMembers).toBeLessThan(await activeUsers(ctx.app, user.tenantId));
    expect(byRole.json().data.recipients).toBe(roleMembers);
    expect((await myBox(user, '?type=notice')).data.list[0].title).toBe('to the user role');

    // head office > sales > east; the user works in "east"
    const tree = await withTenant(ctx.app.database.db, user.tenantId, async (tx) => {
      const [head] = await tx.insert(depts).values({ tenantId: user.tenantId, name: 'Head office', ancestors: [] }).returning();
      const [sales] = await tx
        .insert(depts)
        .values({ tenantId: user.tenantId, name: 'Sales', parentId: head?.id, ancestors: [head?.id as number] })
        .returning();
      const [east] = await tx
        .insert(depts)
        .values({ tenantId: user.tenantId, name: 'East', parentId: sales?.id, ancestors: [head?.id as number, sales?.id as number] })
        .returning();
      const [hr] = await tx
        .insert(depts)
        .values({ tenantId: user.tenantId, name: 'HR', parentId: head?.id, ancestors: [head?.id as number] })
        .returning();
      await tx.update(tenantUsers).set({ deptId: east?.id }).where(eq(tenantUsers.id, user.userId));
      return { head: head?.id, sales: sales?.id, east: east?.id, hr: hr?.id };
    });
    for (const [deptId, expected] of [
      [tree.sales, 1],
      [tree.head, 1],
      [tree.east, 1],
      [tree.hr, 0],
    ] as const) {
      const response = await send({ title: `dept ${deptId}`, scope: 'dept', targetIds: [deptId] });
      expect(response.json().data.recipients, `dept ${deptId}`).toBe(expected);
    }
  });

  it('lists, shows and withdraws notices; the withdrawn notice leaves every message box', async () => {
    const sent = (await send({ title: 'Withdraw me', type: 'todo', scope: 'tenant' })).json().data;
    const everyone = await activeUsers(ctx.app, admin.tenantId);
    expect(sent.recipients).toBe(everyone);
    const list = (await inject(admin, 'GET', '/api/system/notice?title=withdraw')).json().data;
    expect(list.list).toHaveLength(1);
    expect(list.list[0]).toMatchObject({
      id: sent.id,
      title: 'Withdraw me',
      type: 'todo',
      scope: 'tenant',
      targetIds: [],
      recipients: everyone,
      sender: 'Administrator',
    });
    expect((await inject(admin, 'GET', '/api/system/notice?title=%25')).json().data.total).toBe(0);

    const [mine] = (await myBox(user, '?type=todo&read=false')).data.list;
    expect(mine.title).toBe('Withdraw me');
    await inject(user, 'PUT', `/api/system/notification/${mine.id}/read`);
    expect((await inject(admin, 'GET', `/api/system/notice/${sent.id}`)).json().data).toMatchObject({
      id: sent.id,
      readCount: 1,
      recipients: everyone,
    });

    expect((await inject(admin, 'DELETE', `/api/system/notice/${sent.id}`)).json().code).toBe(200);
    expect((await myBox(user, '?type=todo')).data.list.map((n: { title: string }) => n.title)).not.toContain('Withdraw me');
    expect((await inject(admin, 'GET', `/api/system/notice/${sent.id}`)).statusCode).toBe(404);
    expect((await inject(admin, 'DELETE', `/api/system/notice/${sent.id}`)).statusCode).toBe(404);
  });

  it('keeps every count exact through concurrent sends, reads, deletions and withdrawals, for every filter', async () => {
    const types = ['message', 'notice', 'todo'] as const;
    const writes: Promise<unknown>[] = [];
    for (let n = 0; n < 12; n++) {
      writes.push(
        ctx.app.notify({
          tenantId: user.tenantId,
          accountRefs: [user.accountRef, admin.accountRef],
          type: types[n % 3] as (typeof types)[number],
          title: `c${n}`,
        }),
      );
      if (n % 4 === 0) writes.push(inject(user, 'PUT', `/api/system/notification/read-all?type=${types[n % 3]}`));
    }
    writes.push(send({ title: 'To everyone', type: 'notice', scope: 'tenant' }));
    await Promise.all(writes);
    const [first] = (await myBox(user, '?type=message')).data.list;
    await inject(user, 'DELETE', `/api/system/notification/${first.id}`);
    await inject(admin, 'PUT', '/api/system/notification/read-all?type=todo');

    const counted = (who: SignedIn, type?: string, read?: boolean) =>
      withTenant(
        ctx.app.database.db,
        who.tenantId,
        async (tx) =>
          (
            await tx
              .select({ id: notifications.id })
              .from(notifications)
              .where(
                and(
                  eq(notifications.tenantId, who.tenantId),
                  eq(notifications.accountRef, who.accountRef),
                  type ? eq(notifications.type, type) : undefined,
                  read === undefined ? undefined : eq(notifications.read, read),
                ),
              )
          ).length,
      );
    for (const who of [user, admin]) {
      const unread = Object.fromEntries(await Promise.all(types.map(async (t) => [t, await counted(who, t, false)])));
      for (const type of [undefined, ...types]) {
        for (const read of [undefined, true, false]) {
          const query = new URLSearchParams({ ...(type ? { type } : {}), ...(read === undefined ? {} : { read: String(read) }) });
          const box = (await myBox(who, `?${query}`)).data;
          expect(box.total, `${who.accountRef} ${query}`).toBe(await counted(who, type, read));
          expect(box.unread, `${who.accountRef} ${query}`).toEqual(unread);
        }
      }
    }
    // the bell's counts (sent with the realtime connection details) are the same kept counts
    expect((await myBox(user)).data.unread.todo).toBe(await counted(user, 'todo', false));
  });

  it("keeps notices inside their tenant: another tenant's notice answers 404", async () => {
    const acmeNotice = (await send({ title: 'Acme only', scope: 'tenant' }, acme)).json().data;
    expect(acmeNotice.recipients).toBe(await activeUsers(ctx.app, acmeTenantId));
    expect((await inject(admin, 'GET', `/api/system/notice/${acmeNotice.id}`)).statusCode).toBe(404);
    expect((await inject(admin, 'DELETE', `/api/system/notice/${acmeNotice.id}`)).statusCode).toBe(404);
    expect((await inject(admin, 'GET', '/api/system/notice?title=Acme')).json().data.total).toBe(0);
    expect((await inject(acme, 'GET', `/api/system/notice/${acmeNotice.id}`)).statusCode).toBe(200);
  });

  it('answers 403 without the notice permissions, and the user sends nothing', async () => {
    const attempts = [
      ['POST', '/api/system/notice', { title: 'not allowed', scope: 'tenant' }],
      ['GET', '/api/system/notice', undefined],
      ['GET', '/api/system/notice/1', undefined],
      ['DELETE', '/api/system/notice/1', undefined],
    ] as const;
    for (const [method, url, body] of attempts) {
      const response = await inject(user, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().code).toBe(403);
    }
    expect((await myBox(admin)).data.list.map((n: { title: string }) => n.title)).not.toContain('not allowed');
  });

  it('needs a session for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/system/notification'],
      ['PUT', '/api/system/notification/read-all'],
      ['GET', '/api/system/notification/connection'],
      ['POST', '/api/system/notice'],
    ] as const) {
      const response = await ctx.app.inject({ method, url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().code).toBe(11000);
    }
  });

  it('tells the browser where to connect and what to subscribe to', async () => {
    const response = await inject(user, 'GET', '/api/system/notification/connection');
    expect(response.json().data).toEqual({
      url: null,
      port: ctx.app.realtime.port,
      path: '/mqtt',
      topic: `atrium-web/+/${user.clientKey}`,
      qos: 2,
      connectTimeout: 4000,
    });
  });
});
