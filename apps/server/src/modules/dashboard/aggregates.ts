import { type Analysis, type AnalysisQuery, LOW_STOCK_THRESHOLD, type Workplace } from '@atrium/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { dayIn } from '../../crud/business-day';
import type { RawResult, Tx } from '../../db/client';

/**
 * Sums over the tenant's orders, members and stock for the workplace and the analysis pages. Every
 * statement runs in the tenant transaction (row-level security keeps it to the tenant) and casts its
 * sums to float8 or int so both engines answer numbers, not strings. Days and weeks are cut in the
 * caller's time zone.
 */

/** Orders that count as sales: confirmed and later, not drafts or cancelled ones, by confirmation time. */
const SOLD = sql`s.status in ('confirmed', 'shipped', 'completed')`;

async function rows<T>(tx: Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as RawResult<T>).rows;
}

/** The range [from, to] of whole days in `tz` as timestamptz bounds. */
function bounds(from: string, to: string, tz: string) {
  return {
    start: sql`(${from}::date)::timestamp at time zone ${tz}`,
    end: sql`(${to}::date + 1)::timestamp at time zone ${tz}`,
  };
}

/** Every period of the range, so that a period without sales reads as zero rather than missing. */
function periods(from: string, to: string, granularity: AnalysisQuery['granularity']) {
  return sql`select distinct to_char(date_trunc(${granularity}, d), 'YYYY-MM-DD') as period
               from generate_series(${from}::date, ${to}::date, interval '1 day') d`;
}

const periodOf = (column: SQL, granularity: string, tz: string) =>
  sql`to_char(date_trunc(${granularity}, ${column} at time zone ${tz}), 'YYYY-MM-DD')`;

/** Orders of the filters: a warehouse, and a category (an order with at least one item of it). */
function orderFilter(query: Pick<AnalysisQuery, 'warehouseId' | 'categoryId'>): SQL {
  const parts: SQL[] = [];
  if (query.warehouseId) parts.push(sql`and s.warehouse_id = ${query.warehouseId}`);
  if (query.categoryId)
    parts.push(sql`and exists (select 1 from erp_sale_items fi
                                 join erp_skus fk on fk.tenant_id = fi.tenant_id and fk.id = fi.sku_id
                                 join erp_products fp on fp.tenant_id = fk.tenant_id and fp.id = fk.product_id
                                where fi.tenant_id = s.tenant_id and fi.sale_id = s.id and fp.category_id = ${query.categoryId})`);
  return sql.join(parts, sql` `);
}

/** Items of the filters (a category filter keeps only that category's items). */
function itemFilter(query: Pick<AnalysisQuery, 'warehouseId' | 'categoryId'>): SQL {
  const parts: SQL[] = [];
  if (query.warehouseId) parts.push(sql`and s.warehouse_id = ${query.warehouseId}`);
  if (query.categoryId) parts.push(sql`and p.category_id = ${query.categoryId}`);
  return sql.join(parts, sql` `);
}

type Named = { id: number | null; name: string; amount: number; orders: number };

/** The analysis of a range of the tenant's business days (`tz`: the tenant's time zone). */
export async function analysis(tx: Tx, query: AnalysisQuery & { tz: string }, uncategorised: string): Promise<Analysis> {
  const { from, to, granularity, tz } = query;
  const { start, end } = bounds(from, to, tz);
  const inRange = sql`s.confirm_time >= ${start} and s.confirm_time < ${end}`;
  const items = sql`erp_sales s
      join erp_sale_items i on i.tenant_id = s.tenant_id and i.sale_id = s.id
      join erp_skus k on k.tenant_id = i.tenant_id and k.id = i.sku_id
      join erp_products p on p.tenant_id = k.tenant_id and p.id = k.product_id`;

  const sales = await rows<{ period: string; amount: number; orders: number }>(
    tx,
    sql`with p as (${periods(from, to, granularity)}),
             v as (select ${periodOf(sql`s.confirm_time`, granularity, tz)} as period,
                          sum(s.total_amount)::float8 as amount, count(*)::int as orders
                     from erp_sales s where ${SOLD} and ${inRange} ${orderFilter(query)} group by 1)
        select p.period, coalesce(v.amount, 0)::float8 as amount, coalesce(v.orders, 0)::int as orders
          from p left join v on v.period = p.period order by p.period`,
  );

  const byCategory = await rows<Named>(
    tx,
    sql`select p.category_id::int as id, coalesce(c.name, ${uncategorised}) as name,
               sum(i.amount)::float8 as amount, count(distinct s.id)::int as orders
          from ${items}
          left join erp_categories c on c.tenant_id = p.tenant_id and c.id = p.category_id
         where ${SOLD} and ${inRange} ${itemFilter(query)}
         group by 1, 2 order by amount desc limit 20`,
  );

  const byWarehouse = await rows<Named>(
    tx,
    sql`select w.id::int as id, w.name, sum(s.total_amount)::float8 as amount, count(*)::int as orders
          from erp_sales s join erp_warehouses w on w.tenant_id = s.tenant_id and w.id = s.warehouse_id
         where ${SOLD} and ${inRange} ${orderFilter(query)}
         group by 1, 2 order by amount desc limit 20`,
  );

  const matrix = await rows<{ category: string; warehouse: string; amount: number; quantity: number }>(
    tx,
    sql`select coalesce(c.name, ${uncategorised}) as category, w.name as warehouse,
               sum(i.amount)::float8 as amount, sum(i.quantity)::float8 as quantity
          from ${items}
          join erp_warehouses w on w.tenant_id = s.tenant_id and w.id = s.warehouse_id
          left join erp_categories c on c.tenant_id = p.tenant_id and c.id = p.category_id
         where ${SOLD} and ${inRange} ${itemFilter(query)}
         group by 1, 2 order by 1, 2 limit 400`,
  );

  const memberGrowth = await rows<{ period: string; count: number; total: number }>(
    tx,
    sql`with p as (${periods(from, to, granularity)}),
             v as (select ${periodOf(sql`m.create_time`, granularity, tz)} as period, count(*)::int as n
                     from erp_members m where m.create_time >= ${start} and m.create_time < ${end} group by 1),
             before as (select count(*)::int as n from erp_members m where m.create_time < ${start})
        select p.period, coalesce(v.n, 0)::int as count,
               ((select n from before) + sum(coalesce(v.n, 0)) over (order by p.period))::int as total
          from p left join v on v.period = p.period order by p.period`,
  );

  const topMembers = await rows<Named>(
    tx,
    sql`select m.id::int as id, m.name, sum(s.total_amount)::float8 as amount, count(*)::int as orders
          from erp_sales s join erp_members m on m.tenant_id = s.tenant_id and m.id = s.member_id
         where ${SOLD} and ${inRange} ${orderFilter(query)}
         group by 1, 2 order by amount desc, id limit 10`,
  );

  // an activity's effect: sales of its SKUs while it ran, within the range
  const activities = await rows<Named & { quantity: number }>(
    tx,
    sql`select a.id::int as id, a.name, coalesce(sum(i.amount), 0)::float8 as amount,
               count(distinct s.id)::int as orders, coalesce(sum(i.quantity), 0)::float8 as quantity
          from erp_activities a
          left join erp_activity_skus ak on ak.tenant_id = a.tenant_id and ak.activity_id = a.id
          left join erp_sale_items i on i.tenant_id = ak.tenant_id and i.sku_id = ak.sku_id
          left join erp_sales s on s.tenant_id = i.tenant_id and s.id = i.sale_id and ${SOLD} and ${inRange}
                 and s.confirm_time >= a.start_time and s.confirm_time < a.end_time ${orderFilter(query)}
         where a.start_time < ${end} and a.end_time >= ${start}
         group by 1, 2 order by amount desc, id limit 20`,
  );

  const [totals] = await rows<Analysis['totals']>(
    tx,
    sql`select coalesce(sum(s.total_amount), 0)::float8 as amount, count(*)::int as orders,
               coalesce(sum(s.total_quantity), 0)::float8 as quantity,
               (select count(*)::int from erp_members m where m.create_time >= ${start} and m.create_time < ${end}) as members
          from erp_sales s where ${SOLD} and ${inRange} ${orderFilter(query)}`,
  );

  return {
    sales,
    byCategory,
    byWarehouse,
    matrix,
    memberGrowth,
    topMembers,
    activities,
    totals: totals ?? { amount: 0, orders: 0, quantity: 0, members: 0 },
  };
}

/** The workplace's sales section: today, this month, the last 30 days' trend, popular products, category share. */
export async function workplaceSales(tx: Tx, tz: string, uncategorised: string): Promise<NonNullable<Workplace['sales']>> {
  const now = dayIn(tz);
  const monthStart = `${now.slice(0, 8)}01`;
  const trendFrom = dayIn(tz, new Date(), 29);
  const day = bounds(now, now, tz);
  const month = bounds(monthStart, now, tz);
  const trendRange = bounds(trendFrom, now, tz);
  const [kpi] = await rows<{ today_amount: number; today_orders: number; month_amount: number; month_orders: number }>(
    tx,
    sql`select coalesce(sum(s.total_amount) filter (where s.confirm_time >= ${day.start}), 0)::float8 as today_amount,
               (count(*) filter (where s.confirm_time >= ${day.start}))::int as today_orders,
               coalesce(sum(s.total_amount), 0)::float8 as month_amount, count(*)::int as month_orders
          from erp_sales s where ${SOLD} and s.confirm_time >= ${month.start} and s.confirm_time < ${month.end}`,
  );
  const trend = await analysisTrend(tx, trendFrom, now, tz);
  const recent = sql`${SOLD} and s.confirm_time >= ${trendRange.start} and s.confirm_time < ${trendRange.end}`;
  const popular = await rows<{ productId: number; name: string; quantity: number; amount: number }>(
    tx,
    sql`select p.id::int as "productId", p.name, sum(i.quantity)::float8 as quantity, sum(i.amount)::float8 as amount
          from erp_sales s
          join erp_sale_items i on i.tenant_id = s.tenant_id and i.sale_id = s.id
          join erp_skus k on k.tenant_id = i.tenant_id and k.id = i.sku_id
          join erp_products p on p.tenant_id = k.tenant_id and p.id = k.product_id
         where ${recent} group by 1, 2 order by quantity desc, amount desc limit 5`,
  );
  const categoryShare = await rows<{ name: string; amount: number }>(
    tx,
    sql`select coalesce(c.name, ${uncategorised}) as name, sum(i.amount)::float8 as amount
          from erp_sales s
          join erp_sale_items i on i.tenant_id = s.tenant_id and i.sale_id = s.id
          join erp_skus k on k.tenant_id = i.tenant_id and k.id = i.sku_id
          join erp_products p on p.tenant_id = k.tenant_id and p.id = k.product_id
          left join erp_categories c on c.tenant_id = p.tenant_id and c.id = p.category_id
         where ${recent} group by 1 order by amount desc limit 8`,
  );
  return {
    todayAmount: kpi?.today_amount ?? 0,
    todayOrders: kpi?.today_orders ?? 0,
    monthAmount: kpi?.month_amount ?? 0,
    monthOrders: kpi?.month_orders ?? 0,
    trend,
    popular,
    categoryShare,
  };
}

function analysisTrend(tx: Tx, from: string, to: string, tz: string) {
  const { start, end } = bounds(from, to, tz);
  return rows<{ period: string; amount: number; orders: number }>(
    tx,
    sql`with p as (${periods(from, to, 'day')}),
             v as (select ${periodOf(sql`s.confirm_time`, 'day', tz)} as period,
                          sum(s.total_amount)::float8 as amount, count(*)::int as orders
                     from erp_sales s where ${SOLD} and s.confirm_time >= ${start} and s.confirm_time < ${end} group by 1)
        select p.period, coalesce(v.amount, 0)::float8 as amount, coalesce(v.orders, 0)::int as orders
          from p left join v on v.period = p.period order by p.period`,
  );
}

export async function memberCounts(tx: Tx, tz: string): Promise<NonNullable<Workplace['members']>> {
  const now = dayIn(tz);
  const { start } = bounds(`${now.slice(0, 8)}01`, now, tz);
  const [row] = await rows<{ total: number; fresh: number }>(
    tx,
    sql`select count(*)::int as total, (count(*) filter (where create_time >= ${start}))::int as fresh from erp_members`,
  );
  return { total: row?.total ?? 0, newThisMonth: row?.fresh ?? 0 };
}

/** Live SKUs whose stock over all warehouses is at or below the threshold. */
export async function lowStock(tx: Tx): Promise<NonNullable<Workplace['lowStock']>> {
  const [row] = await rows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from erp_skus k
         where not k.deleted
           and coalesce((select sum(st.quantity) from erp_stock st where st.tenant_id = k.tenant_id and st.sku_id = k.id), 0) <= ${LOW_STOCK_THRESHOLD}`,
  );
  return { threshold: LOW_STOCK_THRESHOLD, skus: row?.n ?? 0 };
}

/** Release tasks waiting for an approval this user may give (their grant, not their own task, not yet approved by them). */
export async function pendingReleaseApprovals(tx: Tx, userId: number | null): Promise<number> {
  if (userId === null) return 0;
  const [row] = await rows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from release_tasks t
         where t.status = 'PENDING_APPROVAL' and t.created_by_user <> ${userId}
           and not (t.approvals @> ${JSON.stringify([userId])}::jsonb)
           and exists (select 1 from release_user_projects g
                        where g.tenant_id = t.tenant_id and g.user_id = ${userId} and g.project_id = t.project_id
                          and (g.env_id is null or g.env_id = t.env_id) and g.level in ('APPROVER', 'MAINTAINER'))`,
  );
  return row?.n ?? 0;
}
