import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKS_FROM } from '../../src/crud/paging';
import { walkPays } from '../../src/crud/statements';
import { type RawResult, withTenant } from '../../src/db/client';
import { memberships, tenants, tenantUsers } from '../../src/db/schema';
import { buildTestApp, engines } from '../helper';
import { type Caller, signIn } from './api';

type User = {
  id: number;
  accountId: string;
  name: string;
  nickname: string;
  phone: string | null;
  email: string | null;
  status: '0' | '1';
  deptId: number | null;
  createTime: string;
};
type Dept = { id: number; parentId: number | null; ancestors: number[] };
const PASSWORD = 'Kx9!mountain-ledger';
const rowsOf = <T>(result: unknown) => (result as RawResult<T>).rows;

/**
 * The user list runs as statements built once per filter shape (crud/statements.ts). For every filter,
 * sort, page and data scope these tests hold its answer to a model computed here from all of the
 * tenant's users: the same rows, in the same order, with the same total.
 */
describe.each(engines)('user list on %s: every filter shape against the model', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;
  let all: User[];
  let depts: Dept[];

  const everyUser = async (caller: Caller, sort = 'createTime:desc') => {
    const rows: User[] = [];
    for (let page = 1; ; page++) {
      const answer = (await caller.get(`/api/system/user/user?pageSize=200&pageNum=${page}&sort=${sort}`)).body.data;
      rows.push(...answer.list);
      if (rows.length >= answer.total) return rows;
    }
  };
  const below = (deptId: number) => new Set(depts.filter((d) => d.id === deptId || d.ancestors.includes(deptId)).map((d) => d.id));
  const newestFirst = (a: User, b: User) => (a.createTime === b.createTime ? b.id - a.id : a.createTime < b.createTime ? 1 : -1);

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    all = await everyUser(admin);
    depts = (await admin.get('/api/system/dept?pageSize=200')).body.data.list;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('serves the tenant newest first with ties by id, and each page is the model’s slice', async () => {
    expect(all.length).toBeGreaterThan(200);
    expect([...all].sort(newestFirst).map((u) => u.id)).toEqual(all.map((u) => u.id));
    for (const [pageNum, pageSize] of [
      [1, 20],
      [2, 20],
      [7, 30],
      [3, 100],
    ] as const) {
      const answer = (await admin.get(`/api/system/user/user?pageNum=${pageNum}&pageSize=${pageSize}`)).body.data;
      expect(answer.total).toBe(all.length);
      expect(answer.list.map((u: User) => u.id)).toEqual(all.slice((pageNum - 1) * pageSize, pageNum * pageSize).map((u) => u.id));
    }
  });

  it('writes each time as Date#toISOString writes the stored instant (UTC, milliseconds truncated)', async () => {
    // admin's users are those of the tenant `hq`
    const [hq] = await ctx.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'hq'));
    const inHq = <T>(query: ReturnType<typeof sql>) =>
      withTenant(ctx.database.db, hq?.id ?? 0, async (tx) => rowsOf<T>(await tx.execute(query)));
    const stored = await inHq<{ id: number; create_time: string | Date; update_time: string | Date }>(
      sql`select id::int as id, create_time, update_time from tenant_users`,
    );
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const user of all as (User & { updateTime: string })[]) {
      const row = byId.get(user.id);
      expect(user.createTime).toBe(new Date(row?.create_time ?? 0).toISOString());
      expect(user.updateTime).toBe(new Date(row?.update_time ?? 0).toISOString());
    }
    // microseconds are cut, not rounded; the page and the detail agree (the time is put back after)
    const id = all[0]?.id ?? 0;
    const [kept] = await inHq<{ t: string }>(sql`select create_time::text as t from tenant_users where id = ${id}`);
    try {
      await inHq(sql`update tenant_users set create_time = '2026-01-02 03:04:05.678999+00' where id = ${id}`);
      const listed = (await admin.get('/api/system/user/user?pageNum=1&pageSize=20&sort=createTime:asc')).body.data.list.find(
        (u: User) => u.id === id,
      );
      expect(listed.createTime).toBe('2026-01-02T03:04:05.678Z');
      expect((await admin.get(`/api/system/user/user/${id}`)).body.data.createTime).toBe('2026-01-02T03:04:05.678Z');
    } finally {
      await inHq(sql`update tenant_users set create_time = ${kept?.t}::timestamptz where id = ${id}`);
    }
  });

  it('filters by status, department and below, text prefixes, time range and their combinations', async () => {
    const sample = all[Math.floor(all.length / 3)] as User;
    const withDept = all.find((u) => u.deptId !== null && depts.some((d) => d.parentId === u.deptId)) ?? all.find((u) => u.deptId);
    const deptId = withDept?.deptId as number;
    const times = all.map((u) => u.createTime).sort();
    const from = times[Math.floor(times.length / 4)] as string;
    const to = times[Math.floor((times.length * 3) / 4)] as string;
    const lower = (s: string | null) => (s ?? '').toLowerCase();
    const cases: [string, (u: User) => boolean][] = [
      ['status=0', (u) => u.status === '0'],
      ['status=1', (u) => u.status === '1'],
      [`deptId=${deptId}`, (u) => u.deptId !== null && below(deptId).has(u.deptId)],
      [`name=${encodeURIComponent(sample.name.slice(0, 1))}`, (u) => u.name.startsWith(sample.name.slice(0, 1))],
      [
        `nickname=${encodeURIComponent(sample.nickname.slice(0, 2).toUpperCase())}`,
        (u) => lower(u.nickname).startsWith(lower(sample.nickname.slice(0, 2))),
      ],
      ['accountId=user', (u) => lower(u.accountId).startsWith('user')],
      [`phone=${(sample.phone ?? '138').slice(0, 4)}`, (u) => (u.phone ?? '').startsWith((sample.phone ?? '138').slice(0, 4))],
      [`email=${encodeURIComponent(lower(sample.email).slice(0, 2))}`, (u) => lower(u.email).startsWith(lower(sample.email).slice(0, 2))],
      [`createTimeFrom=${from}&createTimeTo=${to}`, (u) => u.createTime >= from && u.createTime <= to],
      [`status=0&deptId=${deptId}`, (u) => u.status === '0' && u.deptId !== null && below(deptId).has(u.deptId)],
      ['accountId=USER&status=0', (u) => lower(u.accountId).startsWith('user') && u.status === '0'],
      [
        `phone=${(sample.phone ?? '138').slice(0, 2)}&deptId=${deptId}`,
        (u) => (u.phone ?? '').startsWith((sample.phone ?? '138').slice(0, 2)) && u.deptId !== null && below(deptId).has(u.deptId),
      ],
      ['name=%25', (u) => u.name.startsWith('%')],
      ['email=_', (u) => lower(u.email).startsWith('_')],
    ];
    for (const [query, keep] of cases) {
      const expected = all.filter(keep);
      for (const pageNum of [1, 2]) {
        const answer = (await admin.get(`/api/system/user/user?${query}&pageSize=10&pageNum=${pageNum}`)).body.data;
        expect(answer.total, query).toBe(expected.length);
        expect(
          answer.list.map((u: User) => u.id),
          `${query} page ${pageNum}`,
        ).toEqual(expected.slice((pageNum - 1) * 10, pageNum * 10).map((u) => u.id));
      }
    }
  });

  it('sorts by account number either way, with and without a filter', async () => {
    const byAccount = await everyUser(admin, 'accountId:asc');
    expect(new Set(byAccount.map((u) => u.id)).size).toBe(all.length);
    const descending = await everyUser(admin, 'accountId:desc');
    expect(descending.map((u) => u.id)).toEqual([...byAccount].reverse().map((u) => u.id));
    const enabled = byAccount.filter((u) => u.status === '0');
    const page2 = (await admin.get('/api/system/user/user?sort=accountId:asc&status=0&pageSize=15&pageNum=2')).body.data;
    expect(page2.list.map((u: User) => u.id)).toEqual(enabled.slice(15, 30).map((u) => u.id));
  });

  it('pages by keyset: after and before a row give the same pages as page numbers, for users, members and the log', async () => {
    type Row = { id: number };
    const ids = (rows: Row[]) => rows.map((r) => r.id);
    const initials = new Map<string, number>();
    for (const u of all) initials.set(u.name.slice(0, 1), (initials.get(u.name.slice(0, 1)) ?? 0) + 1);
    const commonest = [...initials].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
    // a prefix most users have: its page is found by walking the list in its order (walkPays)
    const phones = new Map<string, number>();
    for (const u of all) if (u.phone) phones.set(u.phone.slice(0, 2), (phones.get(u.phone.slice(0, 2)) ?? 0) + 1);
    const commonPhone = [...phones].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
    expect(phones.get(commonPhone)).toBeGreaterThan(all.length / 2);
    // entries in the operation log: ten audited writes
    for (let n = 0; n < 5; n++) {
      const role = (await admin.post('/api/system/role', { name: `Keyset ${n}`, code: `keyset_${n}`, dataScope: '1', menuIds: [] })).body
        .data;
      expect((await admin.del(`/api/system/role/${role.id}`)).status).toBe(200);
    }
    const lists = [
      ['/api/system/user/user', 'createTime:desc', ''],
      ['/api/system/user/user', 'accountId:asc', ''],
      ['/api/system/user/user', 'id:desc', '&status=0'],
      ['/api/system/user/user', 'createTime:asc', `&name=${encodeURIComponent(commonest)}`],
      ['/api/system/user/user', 'createTime:desc', `&phone=${commonPhone}`],
      ['/api/system/user/user', 'id:asc', `&phone=${commonPhone}&status=0`],
      ['/api/erp/member', 'points:desc', ''],
      ['/api/erp/member', 'name:asc', ''],
      ['/api/system/operlog', 'createTime:desc', ''],
      ['/api/system/operlog', 'durationMs:asc', ''],
    ] as const;
    for (const [path, sort, filter] of lists) {
      const label = `${path} ${sort}${filter}`;
      const size = 7;
      const byNumber: Row[][] = [];
      for (let pageNum = 1; ; pageNum++) {
        const page = (await admin.get(`${path}?pageSize=${size}&pageNum=${pageNum}&sort=${sort}${filter}`)).body.data;
        if (page.list.length) byNumber.push(page.list);
        if (byNumber.length * size >= page.total || page.list.length === 0) break;
      }
      expect(byNumber.length, label).toBeGreaterThan(1);
      // forwards: each page after the last row of the one before
      for (let i = 1; i < byNumber.length; i++) {
        const last = byNumber[i - 1]?.at(-1) as Row;
        const answer = await admin.get(`${path}?pageSize=${size}&sort=${sort}${filter}&after=${last.id}`);
        expect(answer.status, label).toBe(200);
        expect(ids(answer.body.data.list), `${label} after ${last.id}`).toEqual(ids(byNumber[i] as Row[]));
      }
      // backwards: the page before the first row of the next one, in list order
      for (let i = byNumber.length - 1; i > 0; i--) {
        const first = (byNumber[i] as Row[])[0] as Row;
        const answer = await admin.get(`${path}?pageSize=${size}&sort=${sort}${filter}&before=${first.id}`);
        expect(ids(answer.body.data.list), `${label} before ${first.id}`).toEqual(ids(byNumber[i - 1] as Row[]));
      }
      // past the last row: an empty page, not an error
      const end = (byNumber.at(-1) as Row[]).at(-1) as Row;
      expect((await admin.get(`${path}?pageSize=${size}&sort=${sort}${filter}&after=${end.id}`)).body.data.list, label).toEqual([]);
    }
    const refused = async (query: string, field: string) => {
      const answer = await admin.get(`/api/system/user/user?${query}`);
      expect(answer.status, query).toBe(400);
      expect(
        answer.body.data.fields.map((f: { field: string }) => f.field),
        query,
      ).toEqual([field]);
    };
    await refused('after=1&before=2', 'before');
    await refused('after=2147483000', 'after'); // no such user in this tenant
    await refused('after=1%20or%201=1', 'after');
    await refused('after=-3', 'after');
    // lists without keyset paging refuse the parameters instead of ignoring them
    const notices = await admin.get('/api/system/role?after=1');
    expect(notices.status).toBe(400);
    expect(notices.body.data.fields.map((f: { field: string }) => f.field)).toEqual(['after']);
  });

  it('counts a list once for all of its pages, by number and by keyset alike', async () => {
    const [hq] = await ctx.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'hq'));
    const inHq = (query: ReturnType<typeof sql>) => withTenant(ctx.database.db, hq?.id ?? 0, (tx) => tx.execute(query));
    const first = (await admin.get('/api/system/user/user?status=0&pageSize=5')).body.data;
    const moved = first.list[0].id as number;
    // a change the kept total cannot see: made in the database, not through the API (whose writes drop it)
    await inHq(sql`update tenant_users set status = '1' where id = ${moved}`);
    try {
      const pages = ['pageNum=2', `after=${first.list.at(-1).id}`, `before=${first.list.at(-1).id}`, `after=${first.list[1].id}&pageNum=3`];
      for (const page of pages) {
        const answer = (await admin.get(`/api/system/user/user?status=0&pageSize=5&${page}`)).body.data;
        expect(answer.total, page).toBe(first.total);
      }
      // another filter is another count, which sees the change
      const disabled = (await admin.get('/api/system/user/user?status=1&pageSize=200')).body.data.list;
      expect(disabled.map((u: User) => u.id)).toContain(moved);
    } finally {
      await inHq(sql`update tenant_users set status = '0' where id = ${moved}`);
    }
  });

  it('reads a deep page from a row seen there before, as OFFSET reads it, and forgets the row on a write', async () => {
    const [hq] = await ctx.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'hq'));
    const hqId = hq?.id ?? 0;
    const inHq = (query: ReturnType<typeof sql>) => withTenant(ctx.database.db, hqId, (tx) => tx.execute(query));
    const size = 7;
    const deep = Math.ceil(MARKS_FROM / size) + 2;
    const pageOf = async (path: string, pageNum: number, query = '') =>
      (await admin.get(`${path}?pageSize=${size}&pageNum=${pageNum}${query}`)).body.data.list.map((r: { id: number }) => r.id);
    const slice = (rows: { id: number }[], pageNum: number) => rows.slice((pageNum - 1) * size, pageNum * size).map((r) => r.id);
    const marked = () => [...(ctx.app.totals.marks.get(hqId)?.values() ?? [])].reduce((n, m) => n + m.ids.size, 0);
    // pages in an order that reads each from a row seen before: the same page, the next, one further on, one before
    const walk = [deep, deep, deep + 1, deep + 3, deep - 1, deep + 2];
    const byIdDesc = [...all].sort((a, b) => b.id - a.id);
    const cases = [
      ['', all],
      ['&status=0', all.filter((u) => u.status === '0')],
      ['&sort=id:desc', byIdDesc],
      [`&name=${encodeURIComponent(all[0]?.name.slice(0, 1) ?? '')}`, all.filter((u) => u.name.startsWith(all[0]?.name.slice(0, 1) ?? ''))],
    ] as const;
    ctx.app.totals.drop(hqId);
    for (const [query, rows] of cases) {
      for (const pageNum of walk)
        expect(await pageOf('/api/system/user/user', pageNum, query), `${query} page ${pageNum}`).toEqual(slice(rows, pageNum));
    }
    expect(marked()).toBeGreaterThan(0);

    // what served them: moved in the database, where the marks cannot see it, the oldest user becomes
    // the newest; the remembered page still starts at the row seen there, one row later than OFFSET's
    const oldest = all.at(-1) as User;
    const moved = [oldest, ...all.slice(0, -1)];
    const [kept] = rowsOf<{ t: string }>(await inHq(sql`select create_time::text as t from tenant_users where id = ${oldest.id}`));
    try {
      await inHq(sql`update tenant_users set create_time = now() + interval '1 day' where id = ${oldest.id}`);
      expect(await pageOf('/api/system/user/user', deep)).toEqual(slice(all, deep));
      // a write through the API drops them: the page is OFFSET's again
      const role = (await admin.post('/api/system/role', { name: 'Marks', code: 'marks', dataScope: '1', menuIds: [] })).body.data;
      expect((await admin.del(`/api/system/role/${role.id}`)).status).toBe(200);
      expect(marked()).toBe(0);
      expect(await pageOf('/api/system/user/user', deep)).toEqual(slice(moved, deep));
      expect(await pageOf('/api/system/user/user', deep + 1)).toEqual(slice(moved, deep + 1));
    } finally {
      await inHq(sql`update tenant_users set create_time = ${kept?.t}::timestamptz where id = ${oldest.id}`);
      ctx.app.totals.drop(hqId);
    }

    // a remembered row that is gone: the page is read by OFFSET, and the list remembers afresh
    expect(await pageOf('/api/system/user/user', deep)).toEqual(slice(all, deep));
    for (const list of ctx.app.totals.marks.get(hqId)?.values() ?? []) for (const at of list.ids.keys()) list.ids.set(at, 2_147_483_000);
    expect(await pageOf('/api/system/user/user', deep)).toEqual(slice(all, deep));
    expect(await pageOf('/api/system/user/user', deep + 1)).toEqual(slice(all, deep + 1));
    expect([...(ctx.app.totals.marks.get(hqId)?.values() ?? [])].flatMap((m) => [...m.ids.values()])).not.toContain(2_147_483_000);

    // the generic lists (members here) read their deep pages the same way
    await inHq(sql`insert into erp_members (tenant_id, name, mobile, points, create_time)
      select ${hqId}, 'Marks ' || n, '1990000' || lpad(n::text, 4, '0'), n % 7, now() - n * interval '1 minute' from generate_series(1, 150) n`);
    try {
      ctx.app.totals.drop(hqId);
      for (const sort of ['createTime:desc', 'points:asc', 'name:desc']) {
        const members: { id: number }[] = [];
        for (let pageNum = 1; ; pageNum++) {
          const page = (await admin.get(`/api/erp/member?pageSize=100&pageNum=${pageNum}&sort=${sort}`)).body.data;
          members.push(...page.list);
          if (members.length >= page.total) break;
        }
        ctx.app.totals.drop(hqId);
        for (const pageNum of walk)
          expect(await pageOf('/api/erp/member', pageNum, `&sort=${sort}`), `${sort} page ${pageNum}`).toEqual(slice(members, pageNum));
      }
    } finally {
      await inHq(sql`delete from erp_members where name like 'Marks %'`);
      ctx.app.totals.drop(hqId);
    }

    // and so does the operation log (its own statement): entries written in the database, 3 a second
    await inHq(sql`insert into oper_logs (tenant_id, operator, module, action, method, url, result, duration_ms, create_time)
      select ${hqId}, 'marks', 'marks', 'other', 'GET', '/marks', 'success', n % 5, now() - n * interval '333 milliseconds'
      from generate_series(1, 150) n`);
    try {
      for (const query of ['&sort=createTime:desc', '&sort=durationMs:asc&module=marks']) {
        const entries: { id: number }[] = [];
        for (let pageNum = 1; ; pageNum++) {
          const page = (await admin.get(`/api/system/operlog?pageSize=100&pageNum=${pageNum}${query}`)).body.data;
          entries.push(...page.list);
          if (entries.length >= page.total) break;
        }
        ctx.app.totals.drop(hqId);
        for (const pageNum of walk)
          expect(await pageOf('/api/system/operlog', pageNum, query), `${query} page ${pageNum}`).toEqual(slice(entries, pageNum));
      }
    } finally {
      await inHq(sql`delete from oper_logs where module = 'marks'`);
      ctx.app.totals.drop(hqId);
    }
  });

  it('answers role and post ids in ascending order, in the list and one user, whatever order they were given in', async () => {
    const roles = [];
    const posts = [];
    for (const n of [1, 2, 3]) {
      roles.push(
        (await admin.post('/api/system/role', { name: `Order ${n}`, code: `order_${n}`, dataScope: '1', menuIds: [] })).body.data.id,
      );
      posts.push((await admin.post('/api/system/post', { code: `order-${n}`, name: `Order ${n}` })).body.data.id);
    }
    const given = { roleIds: [roles[2], roles[0], roles[1]], postIds: [posts[1], posts[2], posts[0]] };
    const created = await admin.post('/api/system/user/info', { accountId: 'ordered', name: 'Ordered', password: PASSWORD, ...given });
    expect(created.status).toBe(200);
    const ascending = { roleIds: [...roles].sort((a, b) => a - b), postIds: [...posts].sort((a, b) => a - b) };
    expect(created.body.data).toMatchObject(ascending);
    const listed = (await admin.get('/api/system/user/user?accountId=ordered')).body.data.list;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject(ascending);
    // page 1 unfiltered: the statement that reads the page's rows in the same statement as its ids
    const first = (await admin.get('/api/system/user/user?pageSize=20')).body.data.list;
    expect(first.find((u: User) => u.accountId === 'ordered')).toMatchObject(ascending);
    expect((await admin.get(`/api/system/user/user/${created.body.data.id}`)).body.data).toMatchObject(ascending);
    // a user without posts (an empty role list gets the default role) reads as an empty list, not null
    const none = await admin.post('/api/system/user/info', {
      accountId: 'unassigned',
      name: 'Unassigned',
      password: PASSWORD,
      roleIds: [],
    });
    expect(none.status).toBe(200);
    const [unassigned] = (await admin.get('/api/system/user/user?accountId=unassigned')).body.data.list;
    expect(unassigned.postIds).toEqual([]);
  });

  it('applies each data scope, one caller’s statement never serving another’s rows', async () => {
    const parent = depts.find((d) => depts.some((c) => c.parentId === d.id) && all.some((u) => u.deptId === d.id)) as Dept;
    // every menu, page by page: the catalogue holds more than one page of them
    const menus: { id: number; permission: string | null }[] = [];
    for (let pageNum = 1; ; pageNum++) {
      const page = (await admin.get(`/api/system/menu?pageSize=200&pageNum=${pageNum}`)).body.data;
      menus.push(...page.list);
      if (menus.length >= page.total || page.list.length === 0) break;
    }
    const listMenu = menus.filter((m) => m.permission === 'system:user:list' || m.permission === 'system:user:query').map((m) => m.id);
    const callers: Record<string, Caller> = {};
    for (const scope of ['3', '4', '5'] as const) {
      const role = (
        await admin.post('/api/system/role', { name: `Scope ${scope}`, code: `scope_${scope}`, dataScope: scope, menuIds: listMenu })
      ).body.data;
      for (const n of [1, 2]) {
        const account = `scope${scope}n${n}`;
        const created = await admin.post('/api/system/user/info', {
          accountId: account,
          name: `Scope ${scope}`,
          password: PASSWORD,
          roleIds: [role.id],
          deptId: n === 1 ? parent.id : (depts.find((d) => d.parentId === parent.id) as Dept).id,
        });
        expect(created.status).toBe(200);
        callers[account] = await signIn(ctx, account, PASSWORD);
      }
    }
    const everyone = await everyUser(admin);
    for (const [account, caller] of Object.entries(callers)) {
      const me = everyone.find((u) => u.accountId === account) as User;
      const scope = account.slice(5, 6);
      const expected = everyone.filter((u) =>
        scope === '5'
          ? u.id === me.id
          : scope === '3'
            ? u.deptId === me.deptId || u.id === me.id
            : u.deptId !== null && below(me.deptId as number).has(u.deptId),
      );
      const answer = (await caller.get('/api/system/user/user?pageSize=200')).body.data;
      expect(answer.total, account).toBe(expected.length);
      expect(
        answer.list.map((u: User) => u.id),
        account,
      ).toEqual(expected.slice(0, 200).map((u) => u.id));
      const outside = everyone.find((u) => !expected.includes(u)) as User;
      expect((await caller.get(`/api/system/user/user/${outside.id}`)).status, account).toBe(404);
      expect((await caller.get(`/api/system/user/user/${me.id}`)).status, account).toBe(200);
    }
  });

  it('finds a renamed account by its new name, walked or through the index, in every tenant it belongs to and no other', async () => {
    // A walk tests the name on the membership's copy (tenant_users.name_key, ADR 040), which triggers
    // keep: a rename must reach it in each tenant of the account, under that tenant's row-level security.
    const tenantOf = async (code: string) =>
      (await ctx.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code)))[0]?.id ?? 0;
    const [hq, acme] = [await tenantOf('hq'), await tenantOf('acme')];
    const walkers = 40;
    for (let n = 0; n < walkers; n++) {
      const created = await admin.post('/api/system/user/info', { accountId: `walker${n}`, name: `Walker ${n}`, roleIds: [] });
      expect(created.status).toBe(200);
    }
    const solo = (await admin.post('/api/system/user/info', { accountId: 'solo-walker', name: 'Solitaire', roleIds: [] })).body
      .data as User;
    // the same account joins acme, where its admin sees its own people only
    const [link] = await withTenant(ctx.database.db, hq, (tx) =>
      tx.select({ ref: tenantUsers.accountRef }).from(tenantUsers).where(eq(tenantUsers.id, solo.id)),
    );
    await ctx.database.db.insert(memberships).values({ accountId: link?.ref ?? 0, tenantRef: acme });
    const [inAcme] = await withTenant(ctx.database.db, acme, (tx) =>
      tx
        .insert(tenantUsers)
        .values({ tenantId: acme, accountRef: link?.ref ?? 0 })
        .returning({ id: tenantUsers.id }),
    );
    const acmeAdmin = await signIn(ctx, 'acme', 'Acme@123456');
    const keysOf = (tenantId: number) =>
      withTenant(ctx.database.db, tenantId, async (tx) =>
        rowsOf<{ key: string }>(await tx.execute(sql`select name_key as key from tenant_users where account_ref = ${link?.ref ?? 0}`)).map(
          (r) => r.key,
        ),
      );
    expect([await keysOf(hq), await keysOf(acme)]).toEqual([['solitaire'], ['solitaire']]);

    expect((await admin.put(`/api/system/user/info/${solo.id}`, { name: 'Walker Solo' })).status).toBe(200);
    expect([await keysOf(hq), await keysOf(acme)]).toEqual([['walker solo'], ['walker solo']]);

    // hq: page 1 of the prefix walks the list (41 matches among its users), later pages use the index
    const everyone = await everyUser(admin);
    const expected = everyone.filter((u) => u.name.toLowerCase().startsWith('walker')).map((u) => u.id);
    expect(expected).toHaveLength(walkers + 1);
    expect(expected).toContain(solo.id);
    expect(walkPays({ matches: expected.length, rows: everyone.length, reach: 10 })).toBe(true);
    expect(walkPays({ matches: expected.length, rows: everyone.length, reach: 20 })).toBe(false);
    const pages: number[][] = [];
    for (let pageNum = 1; pages.flat().length < expected.length; pageNum++) {
      const page = (await admin.get(`/api/system/user/user?name=WALK&pageSize=10&pageNum=${pageNum}`)).body.data;
      expect(page.total).toBe(expected.length);
      expect(page.list.length, `page ${pageNum}`).toBeGreaterThan(0);
      pages.push(page.list.map((u: User) => u.id));
    }
    expect(pages.flat()).toEqual(expected);
    // keyset pages with the prefix walk too (no offset): the same pages, both ways
    for (let i = 1; i < pages.length; i++) {
      const after = (await admin.get(`/api/system/user/user?name=walk&pageSize=10&after=${pages[i - 1]?.at(-1)}`)).body.data;
      expect(after.list.map((u: User) => u.id)).toEqual(pages[i]);
      const before = (await admin.get(`/api/system/user/user?name=walk&pageSize=10&before=${pages[i]?.[0]}`)).body.data;
      expect(before.list.map((u: User) => u.id)).toEqual(pages[i - 1]);
    }
    // the old name finds nobody, in either tenant
    expect((await admin.get('/api/system/user/user?name=solit')).body.data.total).toBe(0);
    expect((await acmeAdmin.get('/api/system/user/user?name=solit')).body.data.total).toBe(0);
    // acme sees its own membership of the account by the new name, and none of hq's walkers
    const acmeWalkers = (await acmeAdmin.get('/api/system/user/user?name=walker&pageSize=50')).body.data;
    expect(acmeWalkers.list.map((u: User) => u.id)).toEqual([inAcme?.id]);
    expect(acmeWalkers.list[0].name).toBe('Walker Solo');
    // nor does hq see acme's own people by their name
    expect((await acmeAdmin.post('/api/system/user/info', { accountId: 'acme-walker', name: 'Walkabout', roleIds: [] })).status).toBe(200);
    expect((await acmeAdmin.get('/api/system/user/user?name=walka')).body.data.total).toBe(1);
    expect((await admin.get('/api/system/user/user?name=walka')).body.data.total).toBe(0);
  });
});
