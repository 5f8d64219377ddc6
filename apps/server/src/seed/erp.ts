import { count, eq, inArray } from 'drizzle-orm';
import { dayIn } from '../crud/business-day';
import type { Database, Tx } from '../db/client';
import { withTenant } from '../db/client';
import {
  erpActivities,
  erpActivitySkus,
  erpCategories,
  erpDocSequences,
  erpMemberPoints,
  erpMembers,
  erpProducts,
  erpSaleItems,
  erpSales,
  erpSkus,
  erpSpecs,
  erpStock,
  erpStockLedger,
  erpSuppliers,
  erpWarehouses,
  tenants,
} from '../db/schema';

// a fixed sequence, so every start seeds the same shop
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const teas = [
  ['西湖龙井', 'Longjing'],
  ['碧螺春', 'Biluochun'],
  ['铁观音', 'Tieguanyin'],
  ['大红袍', 'Da Hong Pao'],
  ['普洱熟茶', 'Ripe Pu-erh'],
  ['白毫银针', 'Silver Needle'],
  ['祁门红茶', 'Keemun'],
  ['正山小种', 'Lapsang Souchong'],
  ['茉莉花茶', 'Jasmine'],
  ['安吉白茶', 'Anji Bai Cha'],
  ['黄山毛峰', 'Huangshan Maofeng'],
  ['六安瓜片', 'Lu An Gua Pian'],
] as const;
const wares = [
  ['青瓷盖碗', 'Celadon gaiwan'],
  ['紫砂壶', 'Yixing teapot'],
  ['玻璃公道杯', 'Glass pitcher'],
  ['竹制茶盘', 'Bamboo tray'],
  ['旅行茶具', 'Travel set'],
  ['品茗杯', 'Tasting cup'],
  ['茶叶罐', 'Tea caddy'],
  ['茶巾', 'Tea towel'],
] as const;
const surnames = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周'];
const given = ['芳', '伟', '娜', '敏', '静', '磊', '洋', '艳', '杰', '婷'];
const englishNames = ['Alice', 'Ben', 'Chloe', 'David', 'Emma', 'Frank', 'Grace', 'Henry', 'Ivy', 'Jack'];

/**
 * A tea shop for each demo tenant: 3 warehouses, specs, categories, suppliers, 20 products (the tea
 * with a weight spec, the teaware with a colour spec), 50 members, an activity and 100 orders over the
 * last 90 days in every state — with stock and ledger rows that agree (stock = sum of ledger deltas).
 * Written in a few bulk statements so the demo seed stays quick; skipped when the tenant has warehouses.
 */
export async function seedDemoErp(database: Database, tenantCodes: readonly string[], now = new Date()): Promise<void> {
  for (const code of tenantCodes) {
    const [tenant] = await database.db.select({ id: tenants.id, timeZone: tenants.timeZone }).from(tenants).where(eq(tenants.code, code));
    if (!tenant) continue;
    // order numbers carry the tenant's business day, as nextDocNo gives them
    const timeZone = tenant.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    await withTenant(database.db, tenant.id, async (tx) => {
      const [has] = await tx.select({ n: count() }).from(erpWarehouses).where(eq(erpWarehouses.tenantId, tenant.id));
      if ((has?.n ?? 0) > 0) return;
      await seedShop(tx, tenant.id, code !== 'hq', now, timeZone);
    });
  }
}

async function seedShop(tx: Tx, tenantId: number, english: boolean, now: Date, timeZone: string) {
  const rnd = random(tenantId * 7919);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  const by = 'system';
  const L = (zh: string, en: string) => (english ? en : zh);

  const warehouses = await tx
    .insert(erpWarehouses)
    .values([
      {
        tenantId,
        name: L('总仓', 'Main warehouse'),
        code: 'WH-MAIN',
        address: L('杭州市西湖区', 'Hangzhou, Xihu'),
        isDefault: true,
        sort: 1,
        createBy: by,
      },
      {
        tenantId,
        name: L('城东门店', 'East store'),
        code: 'WH-EAST',
        address: L('杭州市上城区', 'Hangzhou, Shangcheng'),
        sort: 2,
        createBy: by,
      },
      {
        tenantId,
        name: L('城西门店', 'West store'),
        code: 'WH-WEST',
        address: L('杭州市余杭区', 'Hangzhou, Yuhang'),
        sort: 3,
        createBy: by,
      },
    ])
    .returning({ id: erpWarehouses.id });
  const weight = { name: L('规格', 'Size'), values: ['50g', '100g', '250g'] };
  const colour = { name: L('颜色', 'Colour'), values: [L('青', 'Green'), L('白', 'White')] };
  await tx.insert(erpSpecs).values([
    { tenantId, name: weight.name, values: weight.values, sort: 1, createBy: by },
    { tenantId, name: colour.name, values: colour.values, sort: 2, createBy: by },
  ]);
  const [teaCat, wareCat] = await tx
    .insert(erpCategories)
    .values([
      { tenantId, name: L('茶叶', 'Tea'), code: 'TEA', sort: 1, createBy: by },
      { tenantId, name: L('茶具', 'Teaware'), code: 'WARE', sort: 2, createBy: by },
    ])
    .returning({ id: erpCategories.id });
  await tx.insert(erpSuppliers).values([
    {
      tenantId,
      name: L('杭州龙井茶业', 'Hangzhou Longjing Tea Co.'),
      contact: L('王经理', 'Mr Wang'),
      mobile: '13800000001',
      createBy: by,
    },
    { tenantId, name: L('宜兴紫砂工坊', 'Yixing Clay Works'), contact: L('李师傅', 'Master Li'), mobile: '13800000002', createBy: by },
    { tenantId, name: L('福建茶叶合作社', 'Fujian Tea Cooperative'), contact: L('陈女士', 'Ms Chen'), mobile: '13800000003', createBy: by },
  ]);

  const productRows = [
    ...teas.map(([zh, en], i) => ({
      name: L(zh, en),
      code: `TEA${String(i + 1).padStart(3, '0')}`,
      categoryId: teaCat?.id,
      unit: L('盒', 'box'),
      specs: [weight],
    })),
    ...wares.map(([zh, en], i) => ({
      name: L(zh, en),
      code: `WARE${String(i + 1).padStart(3, '0')}`,
      categoryId: wareCat?.id,
      unit: L('件', 'pc'),
      specs: i < 3 ? [colour] : [],
    })),
  ];
  const products = await tx
    .insert(erpProducts)
    .values(productRows.map((p) => ({ ...p, tenantId, createBy: by })))
    .returning({ id: erpProducts.id, specs: erpProducts.specs });
  const skuValues = products.flatMap((p, i) => {
    const base = (i < teas.length ? 38 + i * 12 : 25 + (i - teas.length) * 30) * 100;
    const combos = p.specs.length ? (p.specs[0]?.values ?? []).map((v) => [v]) : [[]];
    return combos.map((specValues, j) => ({
      tenantId,
      productId: p.id,
      specValues,
      specKey: specValues.join('\u0001'),
      price: base * (j + 1),
      costPrice: Math.round(base * (j + 1) * 0.55),
      marketPrice: Math.round(base * (j + 1) * 1.2),
      weight: specValues[0]?.endsWith('g') ? Number.parseInt(specValues[0], 10) : 300,
      createBy: by,
    }));
  });
  const skus = await tx.insert(erpSkus).values(skuValues).returning({ id: erpSkus.id, price: erpSkus.price });

  const members = await tx
    .insert(erpMembers)
    .values(
      Array.from({ length: 50 }, (_, i) => ({
        tenantId,
        name: english ? `${pick(englishNames)} ${String.fromCharCode(65 + (i % 26))}.` : `${pick(surnames)}${pick(given)}`,
        mobile: `139${String(tenantId).padStart(2, '0')}${String(100_000 + i).slice(-6)}`,
        sex: pick(['0', '1', '2'] as const),
        level: Math.floor(rnd() * 4),
        balance: Math.floor(rnd() * 50) * 1000,
        tags: rnd() < 0.3 ? [L('老客户', 'regular')] : [],
        createBy: by,
      })),
    )
    .returning({ id: erpMembers.id });

  const start = new Date(now.getTime() - 30 * 86_400_000);
  const [activity] = await tx
    .insert(erpActivities)
    .values({
      tenantId,
      name: L('新茶九折', 'New tea 10% off'),
      type: 'discount',
      discountPercent: 90,
      startTime: start,
      endTime: new Date(now.getTime() + 60 * 86_400_000),
      status: 'Y',
      createBy: by,
    })
    .returning({ id: erpActivities.id });
  await tx.insert(erpActivitySkus).values(skus.slice(0, 6).map((s) => ({ tenantId, activityId: Number(activity?.id), skuId: s.id })));

  // stock: an opening count for every SKU in every warehouse, then the orders take from it
  const stock = new Map<string, number>();
  const ledger: (typeof erpStockLedger.$inferInsert)[] = [];
  const opening = new Date(now.getTime() - 91 * 86_400_000);
  const key = (sku: number, w: number) => `${sku}:${w}`;
  for (const sku of skus) {
    for (const w of warehouses) {
      const n = 40 + Math.floor(rnd() * 60);
      stock.set(key(sku.id, w.id), n);
      ledger.push({
        tenantId,
        skuId: sku.id,
        warehouseId: w.id,
        delta: n,
        balance: n,
        kind: 'adjust',
        remark: L('期初盘点', 'Opening count'),
        operator: by,
        createTime: opening,
      });
    }
  }

  const states = ['draft', 'confirmed', 'shipped', 'completed', 'completed', 'completed', 'cancelled'] as const;
  const perDay = new Map<string, number>();
  const orders = Array.from({ length: 100 }, (_, i) => {
    const at = new Date(now.getTime() - (90 - Math.floor((i * 90) / 100)) * 86_400_000 + Math.floor(rnd() * 8 * 3_600_000));
    const day = dayIn(timeZone, at).replaceAll('-', '');
    const no = (perDay.get(day) ?? 0) + 1;
    perDay.set(day, no);
    const lines = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({ sku: pick(skus), quantity: 1 + Math.floor(rnd() * 3) }));
    const unique = [...new Map(lines.map((l) => [l.sku.id, l])).values()];
    return {
      at,
      orderNo: `SO${day}${String(no).padStart(6, '0')}`,
      status: pick(states),
      warehouse: pick(warehouses),
      member: rnd() < 0.7 ? pick(members) : null,
      lines: unique,
    };
  });
  const sales = await tx
    .insert(erpSales)
    .values(
      orders.map((o) => {
        const goods = o.lines.reduce((s, l) => s + l.sku.price * l.quantity, 0);
        return {
          tenantId,
          orderNo: o.orderNo,
          memberId: o.member?.id ?? null,
          warehouseId: o.warehouse.id,
          status: o.status,
          totalQuantity: o.lines.reduce((s, l) => s + l.quantity, 0),
          goodsAmount: goods,
          totalAmount: goods,
          confirmTime: o.status === 'draft' ? null : o.at,
          cancelTime: o.status === 'cancelled' ? o.at : null,
          createBy: by,
          createTime: o.at,
          updateTime: o.at,
        };
      }),
    )
    .returning({ id: erpSales.id });
  await tx.insert(erpSaleItems).values(
    orders.flatMap((o, i) =>
      o.lines.map((l) => ({
        tenantId,
        saleId: Number(sales[i]?.id),
        skuId: l.sku.id,
        quantity: l.quantity,
        unitPrice: l.sku.price,
        amount: l.sku.price * l.quantity,
      })),
    ),
  );
  // confirmed, shipped and completed orders took their stock; a cancelled one took it and gave it back
  for (const o of orders) {
    if (o.status === 'draft') continue;
    for (const l of o.lines) {
      const k = key(l.sku.id, o.warehouse.id);
      const after = (stock.get(k) ?? 0) - l.quantity;
      stock.set(k, after);
      ledger.push({
        tenantId,
        skuId: l.sku.id,
        warehouseId: o.warehouse.id,
        delta: -l.quantity,
        balance: after,
        kind: 'sale',
        refNo: o.orderNo,
        operator: by,
        createTime: o.at,
      });
      if (o.status === 'cancelled') {
        stock.set(k, after + l.quantity);
        ledger.push({
          tenantId,
          skuId: l.sku.id,
          warehouseId: o.warehouse.id,
          delta: l.quantity,
          balance: after + l.quantity,
          kind: 'cancel',
          refNo: o.orderNo,
          operator: by,
          createTime: o.at,
        });
      }
    }
  }
  await tx.insert(erpStockLedger).values(ledger);
  await tx
    .insert(erpStock)
    .values(
      [...stock].map(([k, quantity]) => ({ tenantId, skuId: Number(k.split(':')[0]), warehouseId: Number(k.split(':')[1]), quantity })),
    );
  await tx.insert(erpDocSequences).values([...perDay].map(([day, last]) => ({ tenantId, prefix: 'SO', day, last })));

  // completed orders earned their members a point per yuan
  const points = new Map<number, { total: number; rows: (typeof erpMemberPoints.$inferInsert)[] }>();
  orders.forEach((o) => {
    if (o.status !== 'completed' || !o.member) return;
    const earned = Math.floor(o.lines.reduce((s, l) => s + l.sku.price * l.quantity, 0) / 100);
    const entry = points.get(o.member.id) ?? { total: 0, rows: [] };
    entry.total += earned;
    entry.rows.push({
      tenantId,
      memberId: o.member.id,
      delta: earned,
      balance: entry.total,
      reason: 'sale',
      refNo: o.orderNo,
      createTime: o.at,
    });
    points.set(o.member.id, entry);
  });
  const rows = [...points.values()].flatMap((p) => p.rows);
  if (rows.length) await tx.insert(erpMemberPoints).values(rows);
  for (const [memberId, p] of points)
    await tx
      .update(erpMembers)
      .set({ points: p.total })
      .where(inArray(erpMembers.id, [memberId]));
}
