import { describe, expect, it } from 'vitest';
import type { Ctx } from '../src/crud/context';
import { pageMarks } from '../src/crud/paging';
import { TOTALS_TTL_MS, TotalsCache } from '../src/crud/totals';

/** A count that answers the next value of `values` each time it is asked, and says how often it was. */
function counter(...values: number[]) {
  let asked = 0;
  const count = async () => values[Math.min(asked++, values.length - 1)] as number;
  return { count, asked: () => asked };
}

describe('kept list totals', () => {
  it('counts once and keeps the total until a write drops the tenant, or TOTALS_TTL_MS passes', async () => {
    let now = 1_000;
    const cache = new TotalsCache(() => now);
    const users = counter(10, 11, 12);
    expect(await cache.get(1, 'system:user|all|{}', users.count)).toBe(10);
    expect(await cache.get(1, 'system:user|all|{}', users.count)).toBe(10);
    expect(users.asked()).toBe(1);
    cache.drop(1);
    expect(await cache.get(1, 'system:user|all|{}', users.count)).toBe(11);
    now += TOTALS_TTL_MS;
    expect(await cache.get(1, 'system:user|all|{}', users.count)).toBe(12);
    expect(users.asked()).toBe(3);
  });

  it("drops one resource's totals and keeps the others, and keeps each tenant apart", async () => {
    const cache = new TotalsCache(() => 0);
    const log = counter(5, 6);
    const users = counter(100, 101);
    const otherTenant = counter(7, 8);
    await cache.get(1, 'system:loginlog|all|{}', log.count);
    await cache.get(1, 'system:loginlog|all|{"result":"success"}', log.count);
    await cache.get(1, 'system:user|all|{}', users.count);
    await cache.get(2, 'system:loginlog|all|{}', otherTenant.count);
    expect(log.asked()).toBe(2);

    cache.drop(1, 'system:loginlog');
    expect(await cache.get(1, 'system:loginlog|all|{}', log.count)).toBe(6);
    expect(log.asked()).toBe(3);
    // another resource of the tenant, and the same resource of another tenant, are still kept
    expect(await cache.get(1, 'system:user|all|{}', users.count)).toBe(100);
    expect(await cache.get(2, 'system:loginlog|all|{}', otherTenant.count)).toBe(7);
    expect(users.asked()).toBe(1);
    expect(otherTenant.asked()).toBe(1);
    // a resource whose name begins like another's is not dropped with it
    const logins = counter(3);
    await cache.get(1, 'system:loginlogs|all|{}', logins.count);
    cache.drop(1, 'system:loginlog');
    await cache.get(1, 'system:loginlogs|all|{}', logins.count);
    expect(logins.asked()).toBe(1);
  });

  it('does not keep a count that was running when its tenant was dropped', async () => {
    const cache = new TotalsCache(() => 0);
    let finish: (n: number) => void = () => {};
    const slow = () => new Promise<number>((resolve) => (finish = resolve));
    const running = cache.get(1, 'system:loginlog|all|{}', slow);
    cache.drop(1, 'system:loginlog');
    finish(41);
    expect(await running).toBe(41);
    // counted before the drop: the next request counts afresh
    expect(await cache.get(1, 'system:loginlog|all|{}', async () => 42)).toBe(42);
  });
});

describe('remembered rows of deep pages', () => {
  it('finds the nearest row at or before a position, until a write, another generation or TOTALS_TTL_MS', () => {
    let now = 0;
    const cache = new TotalsCache(() => now);
    const list = 'system:user|all|{}|createTime:desc';
    const read = cache.generation(1);
    cache.remember(1, list, read, [
      [200, 31],
      [219, 12],
    ]);
    expect(cache.nearest(1, list, 199)).toBeNull();
    expect(cache.nearest(1, list, 200)).toEqual({ position: 200, id: 31 });
    expect(cache.nearest(1, list, 218)).toEqual({ position: 200, id: 31 });
    expect(cache.nearest(1, list, 5_000)).toEqual({ position: 219, id: 12 });
    // another tenant, another list (its sort), see nothing
    expect(cache.nearest(2, list, 219)).toBeNull();
    expect(cache.nearest(1, 'system:user|all|{}|createTime:asc', 219)).toBeNull();

    // a read that began before a write keeps nothing; one after it does
    cache.drop(1, 'erp:member');
    expect(cache.nearest(1, list, 219)).toEqual({ position: 219, id: 12 });
    cache.remember(1, list, read, [[400, 7]]);
    expect(cache.nearest(1, list, 400)).toEqual({ position: 219, id: 12 });
    cache.drop(1, 'system:user');
    expect(cache.nearest(1, list, 400)).toBeNull();
    cache.remember(1, list, cache.generation(1), [[400, 7]]);
    expect(cache.nearest(1, list, 400)).toEqual({ position: 400, id: 7 });

    // marks age with their list: every row it saw goes TOTALS_TTL_MS after the first
    now += TOTALS_TTL_MS - 1;
    cache.remember(1, list, cache.generation(1), [[600, 9]]);
    expect(cache.nearest(1, list, 600)).toEqual({ position: 600, id: 9 });
    now += 1;
    // aged: one request reads by OFFSET; the others start from the aged marks until it made them afresh
    expect(cache.nearest(1, list, 600)).toBeNull();
    expect(cache.nearest(1, list, 600)).toEqual({ position: 600, id: 9 });
    expect(cache.nearest(1, list, 450)).toEqual({ position: 400, id: 7 });
    cache.remember(1, list, cache.generation(1), [[600, 10]]);
    expect(cache.nearest(1, list, 600)).toEqual({ position: 600, id: 10 });
    expect(cache.nearest(1, list, 450)).toBeNull();
    // a re-read that made nothing: another request is sent once TOTALS_TTL_MS passed
    now += TOTALS_TTL_MS;
    expect(cache.nearest(1, list, 600)).toBeNull();
    now += TOTALS_TTL_MS - 1;
    expect(cache.nearest(1, list, 600)).toEqual({ position: 600, id: 10 });
    now += 1;
    expect(cache.nearest(1, list, 600)).toBeNull();
    // a write drops aged marks as it drops fresh ones
    expect(cache.nearest(1, list, 600)).toEqual({ position: 600, id: 10 });
    cache.drop(1, 'system:user');
    expect(cache.nearest(1, list, 600)).toBeNull();
    cache.drop(1);
    expect(cache.marks.has(1)).toBe(false);
  });

  it('makes aged marks fresh only from the read sent to check them by OFFSET', () => {
    let now = 0;
    const cache = new TotalsCache(() => now);
    const ctx = { caller: { tenantId: 1, superAdmin: true }, totals: { cache, resource: 'system:user', filters: '{}' } } as unknown as Ctx;
    const marksAt = (offset: number) => pageMarks(ctx, { column: 'createTime', direction: 'desc' }, offset, { notNull: true });
    const first = marksAt(200);
    expect(first?.from).toBeNull();
    first?.saw([31, 32]);
    expect(marksAt(205)?.from).toEqual({ id: 32, skip: 4 });

    now += TOTALS_TTL_MS;
    const check = marksAt(200);
    expect(check?.from).toBeNull();
    // the others start from the aged row, and what they read leaves the marks aged
    const meanwhile = marksAt(200);
    expect(meanwhile?.from).toEqual({ id: 31, skip: 0 });
    meanwhile?.saw([99, 98]);
    expect(cache.aged(1, 'system:user|all|{}|createTime:desc')).toBe(true);
    expect(marksAt(200)?.from).toEqual({ id: 31, skip: 0 });
    // the OFFSET read makes them afresh
    check?.saw([77, 78]);
    expect(cache.aged(1, 'system:user|all|{}|createTime:desc')).toBe(false);
    expect(marksAt(200)?.from).toEqual({ id: 77, skip: 0 });
  });

  it('keeps a bounded number of rows per list, the latest seen', () => {
    const cache = new TotalsCache(() => 0);
    const list = 'erp:member|all|{}|points:asc';
    for (let n = 0; n < 1_000; n++) cache.remember(1, list, 0, [[100 + n, n]]);
    expect(cache.marks.get(1)?.get(list)?.ids.size).toBeLessThanOrEqual(64);
    expect(cache.nearest(1, list, 1_099)).toEqual({ position: 1_099, id: 999 });
    cache.forget(1, list);
    expect(cache.nearest(1, list, 1_099)).toBeNull();
  });
});
