// The ERP part of `npm run bench:seed`: in the bench tenant, 3 warehouses, 50,000 products with two
// SKUs each (100,000 SKUs), 100,000 members and 1,000,000 sales orders over the last year with two
// lines each, and the stock and stock ledger that match them (an opening adjustment per stock row, one
// `sale` row per line of every confirmed, shipped or completed order, balances as running sums), and
// every tenth product published in the mall, half of those on the shelf.
// Everything is generated inside the database with generate_series and window functions.

export const ERP_PRODUCTS = Number(process.env.BENCH_ERP_PRODUCTS ?? 50_000);
export const ERP_SKUS = ERP_PRODUCTS * 2;
export const ERP_MEMBERS = Number(process.env.BENCH_ERP_MEMBERS ?? 100_000);
export const ERP_ORDERS = Number(process.env.BENCH_ERP_ORDERS ?? 1_000_000);
export const ERP_WAREHOUSES = 3;
/** products published in the mall: every tenth */
export const MALL_GOODS = Math.floor(ERP_PRODUCTS / 10);
/** opening stock of every (SKU, warehouse) */
export const ERP_OPENING = 10_000;
/** ids far above anything the app generates (the sequences are moved past them afterwards) */
export const ERP_BASE = 1_000_000;
const CHUNK = 50_000;

type Exec = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
type Bar = (label: string, done: number, total: number) => void;

/** The SKU (1-based) of line `j` (0/1) of order `i`: two different SKUs spread over the catalogue. */
const skuOf = (i: string, j: number) => `(1 + ((2 * ${i}::bigint + ${j}) * 7919) % ${ERP_SKUS})`;
const priceOf = (k: string) => `(100 * (1 + (${k}) % 500))`;
const qtyOf = (i: string, j: number) => `(1 + (${i} + ${j}) % 3)`;
/** 10 % draft, 10 % cancelled (from draft), 30 % confirmed, 20 % shipped, 30 % completed */
const statusOf = (i: string) =>
  `(case ${i} % 10 when 0 then 'draft' when 1 then 'cancelled' when 2 then 'confirmed' when 3 then 'confirmed' when 4 then 'confirmed'
     when 5 then 'shipped' when 6 then 'shipped' else 'completed' end)`;

async function timed(label: string, run: () => Promise<unknown>) {
  const started = Date.now();
  process.stdout.write(`  ${label.padEnd(14)} …`);
  await run();
  process.stdout.write(`\r  ${label.padEnd(14)} ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

async function chunked(label: string, total: number, exec: Exec, bar: Bar, sql: string) {
  for (let start = 1; start <= total; start += CHUNK) {
    const end = Math.min(total, start + CHUNK - 1);
    await exec(sql, [start, end]);
    bar(label, end, total);
  }
}

/** Removes the tenant's ERP rows (TRUNCATE: the ledger's append-only trigger is per row). */
export async function clearErp(exec: Exec) {
  await exec(`truncate mall_goods, erp_activity_skus, erp_activities, erp_sale_items, erp_sales, erp_doc_sequences, erp_stock_ledger, erp_stock,
                       erp_skus, erp_products, erp_categories, erp_specs, erp_suppliers, erp_members, erp_member_points,
                       erp_warehouses, erp_settings`);
}

export async function fillErp(exec: Exec, t: number, bar: Bar) {
  const B = ERP_BASE;
  await exec(
    `insert into erp_warehouses (tenant_id, id, name, code, is_default, sort) overriding system value
     select ${t}, ${B} + i, '仓库 ' || i, 'WH' || i, i = 1, i from generate_series(1, ${ERP_WAREHOUSES}) i`,
  );
  await exec(
    `insert into erp_categories (tenant_id, id, parent_id, name, code, sort) overriding system value
     select ${t}, ${B} + i, case when i <= 4 then null else ${B} + 1 + i % 4 end, '分类 ' || i, 'C' || i, i
       from generate_series(1, 40) i`,
  );
  await exec(
    `insert into erp_specs (tenant_id, id, name, values) overriding system value
     values (${t}, ${B} + 1, '颜色', '["红","蓝"]'::jsonb)`,
  );
  await chunked(
    'products',
    ERP_PRODUCTS,
    exec,
    bar,
    `insert into erp_products (tenant_id, id, name, code, category_id, unit, specs, status, create_by, create_time) overriding system value
     select ${t}, ${B} + i, '商品 ' || i, 'P' || lpad(i::text, 7, '0'), ${B} + 5 + i % 36, '件',
            '[{"name":"颜色","values":["红","蓝"]}]'::jsonb, case when i % 25 = 0 then '1' else '0' end, 'bench-admin',
            now() - make_interval(secs => i * 600)
       from generate_series($1::int, $2::int) i`,
  );
  await chunked(
    'SKUs',
    ERP_SKUS,
    exec,
    bar,
    `insert into erp_skus (tenant_id, id, product_id, spec_values, spec_key, barcode, price, cost_price, market_price, weight) overriding system value
     select ${t}, ${B} + k, ${B} + (k + 1) / 2, jsonb_build_array(case when k % 2 = 1 then '红' else '蓝' end),
            case when k % 2 = 1 then '红' else '蓝' end, '69' || lpad(k::text, 11, '0'),
            ${priceOf('k')}, ${priceOf('k')} * 6 / 10, ${priceOf('k')} * 12 / 10, 100 + k % 900
       from generate_series($1::int, $2::int) k`,
  );
  await chunked(
    'members',
    ERP_MEMBERS,
    exec,
    bar,
    `insert into erp_members (tenant_id, id, name, mobile, sex, level, points, create_time) overriding system value
     select ${t}, ${B} + i, '会员 ' || i, '138' || lpad(i::text, 8, '0'), (i % 3)::text, i % 5, i % 1000,
            now() - make_interval(secs => i * 300)
       from generate_series($1::int, $2::int) i`,
  );
  // orders: order i is 31.5 s older than order i - 1, so a million span a year; totals from the lines' formulas
  const line = (j: number) => `${qtyOf('i', j)} * ${priceOf(skuOf('i', j))}`;
  await chunked(
    'sales orders',
    ERP_ORDERS,
    exec,
    bar,
    `insert into erp_sales (tenant_id, id, order_no, member_id, warehouse_id, status, total_quantity, goods_amount, discount_amount,
                            total_amount, confirm_time, ship_time, complete_time, cancel_time, create_by, create_time, update_time) overriding system value
     select ${t}, ${B} + i, 'SO' || to_char(c at time zone 'UTC', 'YYYYMMDD') || lpad((i % 1000000)::text, 6, '0'),
            case when i % 3 = 0 then null else ${B} + 1 + i % ${ERP_MEMBERS} end, ${B} + 1 + i % ${ERP_WAREHOUSES}, s,
            ${qtyOf('i', 0)} + ${qtyOf('i', 1)}, ${line(0)} + ${line(1)}, 0, ${line(0)} + ${line(1)},
            case when s in ('confirmed', 'shipped', 'completed') then c + interval '10 minutes' end,
            case when s in ('shipped', 'completed') then c + interval '1 day' end,
            case when s = 'completed' then c + interval '3 days' end,
            case when s = 'cancelled' then c + interval '5 minutes' end,
            'bench-admin', c, c
       from (select i, ${statusOf('i')} s, now() - make_interval(secs => i * 31.5) c from generate_series($1::int, $2::int) i) o`,
  );
  for (const j of [0, 1]) {
    await chunked(
      `order lines ${j + 1}`,
      ERP_ORDERS,
      exec,
      bar,
      `insert into erp_sale_items (tenant_id, id, sale_id, sku_id, quantity, unit_price, discount, amount) overriding system value
       select ${t}, ${B} + 2 * i + ${j}, ${B} + i, ${B} + ${skuOf('i', j)}, ${qtyOf('i', j)}, ${priceOf(skuOf('i', j))}, 0, ${line(j)}
         from generate_series($1::int, $2::int) i`,
    );
  }
  // the ledger: an opening adjustment per (SKU, warehouse), then a sale row per line of every order that
  // took stock, ids in time order, each balance the running sum of its (SKU, warehouse)
  await timed('stock ledger', () =>
    exec(
      `insert into erp_stock_ledger (tenant_id, id, sku_id, warehouse_id, delta, balance, kind, ref_no, operator, create_time) overriding system value
       select ${t}, ${B} + row_number() over (order by ts, seq), sku_id, warehouse_id, delta,
              sum(delta) over (partition by sku_id, warehouse_id order by ts, seq rows unbounded preceding), kind, ref_no, 'bench-admin', ts
         from (select k.id sku_id, w.id warehouse_id, ${ERP_OPENING}::bigint delta, 'adjust' kind, null ref_no,
                      now() - interval '400 days' ts, k.id * 10 + w.id - ${B} * 11 seq
                 from erp_skus k cross join erp_warehouses w where k.tenant_id = ${t} and w.tenant_id = ${t}
               union all
               select l.sku_id, s.warehouse_id, -l.quantity, 'sale', s.order_no, s.confirm_time, l.id
                 from erp_sale_items l join erp_sales s on s.tenant_id = l.tenant_id and s.id = l.sale_id
                where s.tenant_id = ${t} and s.status in ('confirmed', 'shipped', 'completed')) m`,
    ),
  );
  await timed('stock', () =>
    exec(
      `insert into erp_stock (tenant_id, sku_id, warehouse_id, quantity)
       select ${t}, sku_id, warehouse_id, sum(delta) from erp_stock_ledger where tenant_id = ${t} group by sku_id, warehouse_id`,
    ),
  );
  await exec(
    `insert into mall_goods (tenant_id, id, product_id, title, images, prices, sort, shelf, create_by, create_time, update_time) overriding system value
     select ${t}, ${B} + g, ${B} + 10 * g, '商品 ' || 10 * g, '[]'::jsonb, '{}'::jsonb, g % 100, case when g % 2 = 0 then 'on' else 'off' end,
            'bench-admin', now() - make_interval(secs => g * 6000), now() - make_interval(secs => g * 6000)
       from generate_series(1, ${MALL_GOODS}) g`,
  );
  // the daily order-number counters continue after the seeded numbers
  await exec(
    `insert into erp_doc_sequences (tenant_id, prefix, day, last)
     select ${t}, 'SO', substr(order_no, 3, 8), max(substr(order_no, 11)::bigint) from erp_sales where tenant_id = ${t} group by 3`,
  );
  for (const table of [
    'erp_warehouses',
    'erp_categories',
    'erp_specs',
    'erp_products',
    'erp_skus',
    'erp_members',
    'erp_sales',
    'erp_sale_items',
    'erp_stock_ledger',
    'mall_goods',
  ]) {
    await exec(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
  }
}
