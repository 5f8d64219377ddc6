import { MAX_ORDER_AMOUNT } from '@atrium/contracts';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/crud/excel';
import { buildTestApp, engines } from '../helper';
import { type Caller, fieldsOf, signIn } from '../system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${seq++}`;

async function product(api: Caller, price = 1000) {
  const res = await api.post('/api/erp/product', { name: 'Tea', code: unique('P'), skus: [{ price }] });
  expect(res.status).toBe(200);
  return { id: res.body.data.id as number, skuId: res.body.data.skus[0].id as number };
}
async function warehouse(api: Caller) {
  const res = await api.post('/api/erp/warehouse', { name: 'Main', code: unique('W') });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}
const ledgerOf = async (api: Caller, skuId: number, warehouseId: number) =>
  (await api.get(`/api/erp/stock/ledger?skuId=${skuId}&warehouseId=${warehouseId}&pageSize=200`)).body.data.list as {
    delta: number;
    balance: number;
    kind: string;
  }[];
const stockOf = async (api: Caller, skuId: number, warehouseId: number) =>
  ((await api.get(`/api/erp/stock?skuId=${skuId}&warehouseId=${warehouseId}`)).body.data.list[0]?.quantity as number | undefined) ?? 0;

/**
 * Every filter × sortable column × direction of a list, read page by page, must give the model's rows
 * in the model's order (ties by id) and its total; `check` looks at each listed row beside its model.
 */
async function expectListsAsModel<M extends { id: number }, C extends string>(
  api: Caller,
  path: string,
  made: M[],
  filters: [string, (m: M) => boolean][],
  keys: Record<C, (m: M) => string | number>,
  pageSize: number,
  check?: (row: Record<string, unknown>, model: M) => void,
) {
  for (const [filter, wanted] of filters) {
    for (const column of Object.keys(keys) as C[]) {
      const key = keys[column];
      for (const direction of ['asc', 'desc'] as const) {
        const sign = direction === 'asc' ? 1 : -1;
        const expected = made
          .filter(wanted)
          .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id))
          .map((m) => m.id);
        const label = `${filter} by ${column} ${direction}`;
        const seen: number[] = [];
        for (let pageNum = 1; pageNum <= Math.max(1, Math.ceil(expected.length / pageSize)); pageNum++) {
          const res = await api.get(`${path}?${filter}&pageNum=${pageNum}&pageSize=${pageSize}&sort=${column}:${direction}`);
          expect(res.status, label).toBe(200);
          expect(res.body.data.total, label).toBe(expected.length);
          for (const row of res.body.data.list as (Record<string, unknown> & { id: number })[]) {
            check?.(row, made.find((m) => m.id === row.id)!);
            seen.push(row.id);
          }
        }
        expect(seen, label).toEqual(expected);
      }
    }
  }
}

describe.each(engines)('ERP on %s', (engine) => {
  let ctx: Ctx;
  let api: Caller;

  beforeAll(async () => {
    // no request timeout: a 503 then means the request never started (the pool had no connection for it),
    // so a client may send it again; a timeout could answer 503 for a write that committed after it
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', REQUEST_TIMEOUT_MS: '0' });
    api = await signIn(ctx, 'acme', 'Acme@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('creates a warehouse from name and code, and refuses a taken code naming it', async () => {
    const code = unique('W');
    const first = await api.post('/api/erp/warehouse', { name: 'North', code });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: 'North', code, isDefault: false, status: '0' });
    const again = await api.post('/api/erp/warehouse', { name: 'Other', code });
    expect(again.status).toBe(409);
    expect(fieldsOf(again.body)).toEqual(['code']);
    const list = await api.get(`/api/erp/warehouse?code=${code}`);
    expect(list.body.data).toMatchObject({ total: 1, pageNum: 1, pageSize: 20 });
  });

  it('lists products as a model of them says for every filter, sort and page, each with its live SKUs, stock and category', async () => {
    const marker = unique('Q').toLowerCase();
    const w = await warehouse(api);
    const categoryNames = new Map<number, string>();
    const category = async () => {
      const name = unique('C');
      const id = (await api.post('/api/erp/category', { name, code: unique('C') })).body.data.id as number;
      categoryNames.set(id, name);
      return id;
    };
    const [catA, catB] = [await category(), await category()];
    const specs = [{ name: 'Colour', values: ['Red', 'Blue'] }];
    type Made = {
      id: number;
      name: string;
      code: string;
      categoryId: number;
      status: '0' | '1';
      createTime: string;
      skuIds: number[];
      stock: number;
      minPrice: number;
    };
    const made: Made[] = [];
    for (let i = 0; i < 7; i++) {
      const two = i % 2 === 0;
      const res = await api.post('/api/erp/product', {
        // names that sort alike in any collation; one with LIKE's wildcards, taken literally
        name: i === 3 ? `${marker} a%_b` : `${marker} n${(7 - i) % 4}${i}`,
        code: `${marker}c${(i * 3) % 7}`,
        categoryId: i < 4 ? catA : catB,
        status: i % 3 === 2 ? '1' : '0',
        ...(two
          ? {
              specs,
              skus: [
                { specValues: ['Red'], price: 300 + i },
                { specValues: ['Blue'], price: 200 + i },
              ],
            }
          : { skus: [{ price: 100 + i }] }),
      });
      expect(res.status).toBe(200);
      const skus = res.body.data.skus as { id: number; price: number; specValues: string[] }[];
      // in the order they were made (by id), not in their spec key's order
      if (two) expect(skus.map((s) => s.specValues[0])).toEqual(['Red', 'Blue']);
      let stock = 0;
      for (const [k, sku] of skus.entries()) {
        const delta = i + k + 1;
        expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId: sku.id, delta })).status).toBe(200);
        stock += delta;
      }
      made.push({ ...res.body.data, skuIds: skus.map((s) => s.id), stock, minPrice: Math.min(...skus.map((s) => s.price)) });
    }
    // a removed SKU with stock is soft-deleted: it leaves the product's SKUs, price and stock
    const first = made[0]!;
    const kept = await api.get(`/api/erp/product/${first.id}`);
    const blue = (kept.body.data.skus as { id: number; specValues: string[]; price: number }[]).find((s) => s.specValues[0] === 'Blue')!;
    const cut = await api.put(`/api/erp/product/${first.id}`, {
      name: first.name,
      code: first.code,
      categoryId: catA,
      specs,
      skus: [{ id: blue.id, specValues: ['Blue'], price: blue.price }],
    });
    expect(cut.status).toBe(200);
    Object.assign(first, { skuIds: [blue.id], stock: 2, minPrice: blue.price });

    const filters: [string, (m: Made) => boolean][] = [
      [`name=${encodeURIComponent(marker)}`, () => true],
      [`name=${encodeURIComponent(`${marker} n`)}`, (m) => m.name.startsWith(`${marker} n`)],
      [`name=${encodeURIComponent('%_')}&categoryId=${catA}`, (m) => m.name.includes('%_')],
      [`categoryId=${catB}`, (m) => m.categoryId === catB],
      [`categoryId=${catA}&status=0`, (m) => m.categoryId === catA && m.status === '0'],
      [
        `code=${encodeURIComponent(`${marker}c1`)}&status=1&name=${encodeURIComponent(marker)}`,
        (m) => m.code.includes(`${marker}c1`) && m.status === '1',
      ],
      [`code=${encodeURIComponent(marker)}&categoryId=${catA}`, (m) => m.categoryId === catA],
    ];
    await expectListsAsModel(
      api,
      '/api/erp/product',
      made,
      filters,
      { name: (m) => m.name, code: (m) => m.code, createTime: (m) => m.createTime },
      3,
      (row, m) => {
        const listed = row as { skus: { id: number }[]; stock: number; minPrice: number; categoryName: string };
        expect([listed.skus.map((k) => k.id), listed.stock, listed.minPrice]).toEqual([m.skuIds, m.stock, m.minPrice]);
        expect(listed.categoryName).toBe(categoryNames.get(m.categoryId));
      },
    );
  });

  it('keeps one default warehouse per tenant', async () => {
    const a = await api.post('/api/erp/warehouse', { name: 'A', code: unique('W'), isDefault: true });
    const b = await api.post('/api/erp/warehouse', { name: 'B', code: unique('W'), isDefault: true });
    expect((await api.get(`/api/erp/warehouse/${a.body.data.id}`)).body.data.isDefault).toBe(false);
    expect((await api.get(`/api/erp/warehouse/${b.body.data.id}`)).body.data.isDefault).toBe(true);
    // the default stays enabled: by the status switch (409) and by an edit (400), until another is the default
    const off = await api.put(`/api/erp/warehouse/${b.body.data.id}/status`, { status: '1' });
    expect([off.status, off.body.data.fields[0]]).toMatchObject([409, { field: 'status', rule: 'default' }]);
    const edited = await api.put(`/api/erp/warehouse/${b.body.data.id}`, {
      name: 'B',
      code: b.body.data.code,
      isDefault: true,
      status: '1',
    });
    expect([edited.status, edited.body.data.fields[0].message]).toEqual([400, 'the default warehouse must be enabled']);
    const made = await api.post('/api/erp/warehouse', { name: 'C', code: unique('W'), isDefault: true, status: '1' });
    expect(made.status).toBe(400);
    expect((await api.get(`/api/erp/warehouse/${b.body.data.id}`)).body.data).toMatchObject({ isDefault: true, status: '0' });
    expect((await api.put(`/api/erp/warehouse/${a.body.data.id}/status`, { status: '1' })).status).toBe(200);
  });

  it('creates a product from name, code and one price; a non-integer price is a 400', async () => {
    const res = await api.post('/api/erp/product', { name: 'Green tea', code: unique('P'), skus: [{ price: 1290 }] });
    expect(res.status).toBe(200);
    expect(res.body.data.skus).toEqual([expect.objectContaining({ id: expect.any(Number), price: 1290, specValues: [] })]);
    const bad = await api.post('/api/erp/product', { name: 'Green tea', code: unique('P'), skus: [{ price: 12.9 }] });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toContain('skus.0.price');
    const two = await api.post('/api/erp/product', { name: 'x', code: unique('P'), skus: [{ price: 1 }, { price: 2 }] });
    expect(two.status).toBe(400);
  });

  it('combines two specs into SKUs and soft-deletes a SKU that stock refers to', async () => {
    const specs = [
      { name: 'Colour', values: ['Red', 'Blue'] },
      { name: 'Size', values: ['S', 'L'] },
    ];
    const skus = specs[0]!.values.flatMap((c) => specs[1]!.values.map((s) => ({ specValues: [c, s], price: 500 })));
    const created = await api.post('/api/erp/product', { name: 'Cup', code: unique('P'), specs, skus });
    expect(created.status).toBe(200);
    expect(created.body.data.skus).toHaveLength(4);
    const w = await warehouse(api);
    const [first, ...rest] = created.body.data.skus as { id: number; specValues: string[]; price: number }[];
    expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId: first!.id, delta: 3 })).status).toBe(200);
    const kept = rest.map((s) => ({ id: s.id, specValues: s.specValues, price: s.price }));
    const updated = await api.put(`/api/erp/product/${created.body.data.id}`, {
      name: 'Cup',
      code: created.body.data.code,
      specs,
      skus: kept,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.skus).toHaveLength(3);
    // the ledger still names the soft-deleted SKU
    expect((await ledgerOf(api, first!.id, w)).map((l) => l.balance)).toEqual([3]);
    const wrong = await api.post('/api/erp/product', {
      name: 'Cup',
      code: unique('P'),
      specs,
      skus: [{ specValues: ['Green', 'S'], price: 1 }],
    });
    expect(wrong.status).toBe(400);
  });

  it('adjusts stock by deltas: the balance comes back, below zero is a 409, a fraction a 400', async () => {
    const { skuId } = await product(api);
    const w = await warehouse(api);
    const up = await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: 5, remark: 'count' });
    expect(up.body.data).toEqual({ skuId, warehouseId: w, quantity: 5 });
    const short = await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: -6 });
    expect(short.status).toBe(409);
    // the SKU by its product's name, and what the warehouse has
    const said = [short.body.message, ...(short.body.data?.fields ?? []).map((f: { message: string }) => f.message)].join(' | ');
    expect(said).toContain('Not enough stock of "Tea" (this warehouse has 5)');
    const frac = await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: 1.5 });
    expect(frac.status).toBe(400);
    expect(fieldsOf(frac.body)).toEqual(['delta']);
    expect(frac.body.data.fields[0].message).toBe('must be a whole number');
    expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: -2 })).body.data.quantity).toBe(3);
    const ledger = await ledgerOf(api, skuId, w);
    expect(ledger.map((l) => [l.delta, l.balance, l.kind])).toEqual([
      [-2, 3, 'adjust'],
      [5, 5, 'adjust'],
    ]);
  });

  it('refuses negative stock unless the tenant turns it on; with it on the ledger still sums to the stock', async () => {
    const { skuId } = await product(api);
    const w = await warehouse(api);
    expect((await api.get('/api/erp/stock/settings')).body.data).toEqual({ allowNegativeStock: false });
    await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: 1 });
    expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: -2 })).status).toBe(409);
    const bad = await api.put('/api/erp/stock/settings', { allowNegativeStock: 'yes' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['allowNegativeStock']);
    const user = await signIn(ctx, 'user', 'User@123456');
    expect((await user.put('/api/erp/stock/settings', { allowNegativeStock: true })).status).toBe(403);
    expect((await api.get('/api/erp/stock/settings')).body.data.allowNegativeStock).toBe(false);
    try {
      expect((await api.put('/api/erp/stock/settings', { allowNegativeStock: true })).body.data).toEqual({ allowNegativeStock: true });
      expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: -3 })).body.data.quantity).toBe(-2);
      const order = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 2 }] });
      expect((await api.put(`/api/erp/sale/${order.body.data.id}/confirm`, {})).status).toBe(200);
      expect(await stockOf(api, skuId, w)).toBe(-4);
      // a SKU never stocked in this warehouse goes below zero from no row at all
      const other = await warehouse(api);
      expect((await api.post('/api/erp/stock/adjust', { warehouseId: other, skuId, delta: -1 })).body.data.quantity).toBe(-1);
      const ledger = await ledgerOf(api, skuId, w);
      expect(ledger.map((l) => l.balance)).toEqual([-4, -2, 1]);
      expect(ledger.reduce((sum, l) => sum + l.delta, 0)).toBe(-4);
    } finally {
      await api.put('/api/erp/stock/settings', { allowNegativeStock: false });
    }
    expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: -1 })).status).toBe(409);
    const order = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 1 }] });
    expect((await api.put(`/api/erp/sale/${order.body.data.id}/confirm`, {})).status).toBe(409);
  });

  it('exports ERP lists in the requester’s language: headers, coded values, yes/no, money in yuan and local times', async () => {
    const code = unique('W');
    const made = await api.post('/api/erp/warehouse', { name: 'Export', code, status: '1' });
    const sheetOf = async (url: string, lang: string) => {
      const answer = await ctx.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${api.token}`, 'accept-language': lang },
      });
      expect(answer.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
      const ws = workbook.worksheets[0]!;
      const header = (ws.getRow(1).values as unknown[]).slice(1) as string[];
      return { header, row: Object.fromEntries(header.map((h, i) => [h, ws.getRow(2).getCell(i + 1).value])) };
    };
    const zh = await sheetOf(`/api/erp/warehouse/export?code=${code}&tz=Asia/Shanghai`, 'zh-CN');
    expect(zh.header.slice(0, 2)).toEqual(['仓库名称', '仓库编码']);
    expect(zh.row).toMatchObject({ 仓库名称: 'Export', 状态: '停用', 默认仓库: '否' });
    expect(zh.row.创建时间).toBe(formatTime(made.body.data.createTime, 'Asia/Shanghai'));
    const en = await sheetOf(`/api/erp/warehouse/export?code=${code}`, 'en-US');
    expect(en.row).toMatchObject({ Status: 'Disabled', Created: formatTime(made.body.data.createTime, 'UTC') });
    // sales orders: the state as a word, the amount in yuan
    const { skuId } = await product(api, 1250);
    const w = await warehouse(api);
    const sale = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 2 }] });
    const orders = await sheetOf(`/api/erp/sale/export?orderNo=${sale.body.data.orderNo}`, 'en-US');
    expect(orders.row).toMatchObject({ 'Order no.': sale.body.data.orderNo, Status: 'Draft', 'Total (¥)': 25 });
  });

  /**
   * A request as a client sends it: a 503 says the server was too busy to start it (fifty at once on a
   * pool of four, on a busy machine), and nothing was done, so it is sent again.
   */
  const served = async <T extends { status: number }>(send: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const answer = await send();
      if (answer.status !== 503 || attempt === 20) return answer;
    }
  };

  it('sells 5 units to exactly 5 of 50 racing confirmations; the ledger counts down 5,4,3,2,1,0', async () => {
    const { skuId } = await product(api);
    const w = await warehouse(api);
    await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: 5 });
    const orders = await Promise.all(
      Array.from({ length: 50 }, () => served(() => api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 1 }] }))),
    );
    const numbers = orders.map((o) => o.body.data.orderNo as string);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers.every((n) => /^SO\d{8}\d{6}$/.test(n))).toBe(true);
    expect(orders.every((o) => o.body.data.status === 'draft' && o.body.data.totalAmount === 1000)).toBe(true);
    const confirms = await Promise.all(orders.map((o) => served(() => api.put(`/api/erp/sale/${o.body.data.id}/confirm`, {}))));
    // anything but 200 or 409 shows here first
    expect(confirms.filter((c) => c.status !== 200 && c.status !== 409).map((c) => `${c.status} ${c.body.message}`)).toEqual([]);
    expect(confirms.filter((c) => c.status === 200)).toHaveLength(5);
    expect(confirms.filter((c) => c.status === 409)).toHaveLength(45);
    expect(await stockOf(api, skuId, w)).toBe(0);
    const balances = (await ledgerOf(api, skuId, w)).map((l) => l.balance).reverse();
    expect(balances).toEqual([5, 4, 3, 2, 1, 0]);
  });

  it('confirms all lines or none, and a cancel returns the stock exactly once', async () => {
    const a = await product(api);
    const b = await product(api, 250);
    const w = await warehouse(api);
    await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId: a.skuId, delta: 10 });
    await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId: b.skuId, delta: 1 });
    const short = await api.post('/api/erp/sale', {
      warehouseId: w,
      items: [
        { skuId: a.skuId, quantity: 2 },
        { skuId: b.skuId, quantity: 2 },
      ],
    });
    expect((await api.put(`/api/erp/sale/${short.body.data.id}/confirm`, {})).status).toBe(409);
    expect(await stockOf(api, a.skuId, w)).toBe(10);
    const order = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId: a.skuId, quantity: 3, unitPrice: 1 }] });
    expect(order.body.data.totalAmount).toBe(3000);
    expect((await api.put(`/api/erp/sale/${order.body.data.id}/ship`, {})).status).toBe(409);
    expect((await api.put(`/api/erp/sale/${order.body.data.id}/confirm`, {})).body.data.status).toBe('confirmed');
    expect(await stockOf(api, a.skuId, w)).toBe(7);
    expect(
      (await api.put(`/api/erp/sale/${order.body.data.id}`, { warehouseId: w, items: [{ skuId: a.skuId, quantity: 1 }] })).status,
    ).toBe(409);
    const cancels = await Promise.all([1, 2, 3].map(() => api.put(`/api/erp/sale/${order.body.data.id}/cancel`, {})));
    expect(cancels.map((c) => c.status).sort()).toEqual([200, 409, 409]);
    expect(await stockOf(api, a.skuId, w)).toBe(10);
    const done = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId: a.skuId, quantity: 1 }] });
    for (const step of ['confirm', 'ship', 'complete'])
      expect((await api.put(`/api/erp/sale/${done.body.data.id}/${step}`, {})).status).toBe(200);
    expect((await api.put(`/api/erp/sale/${done.body.data.id}/cancel`, {})).status).toBe(409);
    const log = await api.get('/api/system/operlog?pageSize=50');
    expect(JSON.stringify(log.body.data.list)).toContain('erp:sale');
  });

  it('prices orders from activities; enabling an overlapping activity on a shared SKU is a 409 naming it', async () => {
    const { skuId } = await product(api, 1000);
    const w = await warehouse(api);
    const now = Date.now();
    const window = { startTime: new Date(now - 3600_000).toISOString(), endTime: new Date(now + 3600_000).toISOString() };
    const first = await api.post('/api/erp/activity', {
      name: 'Spring',
      type: 'discount',
      discountPercent: 90,
      skuIds: [skuId],
      ...window,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.status).toBe('N');
    expect((await api.put(`/api/erp/activity/${first.body.data.id}/status`, { status: 'Y' })).status).toBe(200);
    const sale = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 2 }] });
    expect(sale.body.data).toMatchObject({ goodsAmount: 2000, discountAmount: 200, totalAmount: 1800 });
    const second = await api.post('/api/erp/activity', {
      name: 'Rival',
      type: 'discount',
      discountPercent: 80,
      skuIds: [skuId],
      ...window,
    });
    const clash = await api.put(`/api/erp/activity/${second.body.data.id}/status`, { status: 'Y' });
    expect(clash.status).toBe(409);
    expect(clash.body.data.fields[0].message).toContain('Spring');
    const later = { startTime: new Date(now + 7200_000).toISOString(), endTime: new Date(now + 9000_000).toISOString() };
    const third = await api.post('/api/erp/activity', { name: 'Summer', type: 'discount', discountPercent: 80, skuIds: [skuId], ...later });
    expect((await api.put(`/api/erp/activity/${third.body.data.id}/status`, { status: 'Y' })).status).toBe(200);
    const bad = await api.post('/api/erp/activity', { name: 'x', type: 'discount', skuIds: [skuId], ...window });
    expect(fieldsOf(bad.body)).toContain('discountPercent');
  });

  it('keeps order amounts exact up to MAX_ORDER_AMOUNT and refuses an order past it, naming the line, writing nothing', async () => {
    const w = await warehouse(api);
    const { skuId } = await product(api, 30_680_891_416);
    const now = Date.now();
    const window = { startTime: new Date(now - 3600_000).toISOString(), endTime: new Date(now + 3600_000).toISOString() };
    const activity = await api.post('/api/erp/activity', {
      name: 'Big',
      type: 'discount',
      discountPercent: 68,
      skuIds: [skuId],
      ...window,
    });
    expect((await api.put(`/api/erp/activity/${activity.body.data.id}/status`, { status: 'Y' })).status).toBe(200);
    // 754,627,205,267,936 fen, under the limit; 68 % of it is …582,196.48, which gross × 68 / 100 in
    // doubles (past 2^53) would round to …197
    const gross = 30_680_891_416n * 24_596n;
    const total = (gross * 68n + 50n) / 100n;
    const sale = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 24_596 }] });
    expect(sale.status).toBe(200);
    expect(sale.body.data).toMatchObject({ goodsAmount: Number(gross), totalAmount: Number(total), discountAmount: Number(gross - total) });
    expect(Number(gross) <= MAX_ORDER_AMOUNT && Number.isSafeInteger(Number(gross))).toBe(true);
    const before = (await api.get('/api/erp/sale?pageSize=1')).body.data.total;
    // the second line takes the order past the limit: a 400 on that line's quantity, no order written
    const over = await api.post('/api/erp/sale', {
      warehouseId: w,
      items: [
        { skuId, quantity: 24_596 },
        { skuId, quantity: 10_000 },
      ],
    });
    expect(over.status).toBe(400);
    expect(over.body.data.fields).toEqual([expect.objectContaining({ field: 'items.1.quantity', rule: 'max' })]);
    expect((await api.get('/api/erp/sale?pageSize=1')).body.data.total).toBe(before);
    // editing a draft into the same order is refused the same way
    const edit = await api.put(`/api/erp/sale/${sale.body.data.id}`, { warehouseId: w, items: [{ skuId, quantity: 1_000_000 }] });
    expect([edit.status, edit.body.data.fields?.[0]?.field]).toEqual([400, 'items.0.quantity']);
    expect((await api.put(`/api/erp/activity/${activity.body.data.id}/status`, { status: 'N' })).status).toBe(200);
  });

  it('lists orders as a model of them says for status, member, warehouse, dates and number, every sort and page', async () => {
    const [w1, w2] = [await warehouse(api), await warehouse(api)];
    const member = async () =>
      (await api.post('/api/erp/member', { name: 'M', mobile: `13${String(Date.now() + seq++).slice(-9)}` })).body.data.id as number;
    const [m1, m2] = [await member(), await member()];
    const { skuId } = await product(api, 700);
    for (const w of [w1, w2]) expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: 50 })).status).toBe(200);
    type Order = {
      id: number;
      orderNo: string;
      status: string;
      memberId: number | null;
      warehouseId: number;
      totalAmount: number;
      createTime: string;
    };
    const made: Order[] = [];
    for (let i = 0; i < 9; i++) {
      const memberId = [m1, m2, null][i % 3];
      const created = await api.post('/api/erp/sale', {
        warehouseId: i % 2 ? w2 : w1,
        ...(memberId ? { memberId } : {}),
        items: [{ skuId, quantity: ((i * 5) % 7) + 1 }],
      });
      expect(created.status).toBe(200);
      const id = created.body.data.id as number;
      if (i % 4 === 1) expect((await api.put(`/api/erp/sale/${id}/confirm`, {})).status).toBe(200);
      if (i % 4 === 3) expect((await api.put(`/api/erp/sale/${id}/cancel`, {})).status).toBe(200);
      made.push((await api.get(`/api/erp/sale/${id}`)).body.data);
    }
    const mine = (o: Order) => o.warehouseId === w1 || o.warehouseId === w2;
    const at = (i: number) => made[i]!.createTime;
    const q = encodeURIComponent;
    const filters: [string, (o: Order) => boolean][] = [
      [`warehouseId=${w1}`, (o) => o.warehouseId === w1],
      [`warehouseId=${w2}&status=confirmed`, (o) => o.warehouseId === w2 && o.status === 'confirmed'],
      [`memberId=${m1}`, (o) => o.memberId === m1],
      [`memberId=${m2}&warehouseId=${w2}`, (o) => o.memberId === m2 && o.warehouseId === w2],
      [`status=draft&memberId=${m1}`, (o) => o.status === 'draft' && o.memberId === m1],
      [`warehouseId=${w1}&from=${q(at(3))}`, (o) => o.warehouseId === w1 && o.createTime >= at(3)],
      [`warehouseId=${w2}&to=${q(at(6))}`, (o) => o.warehouseId === w2 && o.createTime < at(6)],
      [`memberId=${m2}&from=${q(at(1))}&to=${q(at(8))}`, (o) => o.memberId === m2 && o.createTime >= at(1) && o.createTime < at(8)],
      [
        `warehouseId=${w1}&orderNo=${q(made[4]!.orderNo.toLowerCase())}`,
        (o) => o.warehouseId === w1 && o.orderNo.startsWith(made[4]!.orderNo),
      ],
    ];
    const ours: [string, (o: Order) => boolean][] = filters.map(([filter, wanted]) => [filter, (o) => mine(o) && wanted(o)]);
    await expectListsAsModel(
      api,
      '/api/erp/sale',
      made,
      ours,
      { createTime: (o) => o.createTime, totalAmount: (o) => o.totalAmount, orderNo: (o) => o.orderNo },
      2,
    );
  });

  it('filters orders by a number prefix exactly as the model: narrow, broad, lower-case, non-ASCII and wildcard-like', async () => {
    type Sale = { id: number; orderNo: string; createTime: string; totalAmount: number };
    const all: Sale[] = [];
    for (let pageNum = 1; ; pageNum++) {
      const page = (await api.get(`/api/erp/sale?pageSize=200&pageNum=${pageNum}`)).body.data;
      all.push(...page.list);
      if (all.length >= page.total || page.list.length === 0) break;
    }
    expect(all.length).toBeGreaterThan(20);
    const newestFirst = (a: Sale, b: Sale) => (a.createTime === b.createTime ? b.id - a.id : a.createTime < b.createTime ? 1 : -1);
    const sample = all[Math.floor(all.length / 2)] as Sale;
    for (const prefix of [
      sample.orderNo,
      sample.orderNo.slice(0, 10),
      sample.orderNo.slice(0, 8),
      'SO',
      sample.orderNo.slice(0, 10).toLowerCase(),
      'SO%',
      'S_',
      '订单',
      `${sample.orderNo.slice(0, 9)}~`,
    ]) {
      const expected = all.filter((o) => o.orderNo.startsWith(prefix.toUpperCase())).sort(newestFirst);
      const answer = await api.get(`/api/erp/sale?pageSize=200&orderNo=${encodeURIComponent(prefix)}`);
      expect(answer.status, prefix).toBe(200);
      expect(answer.body.data.total, prefix).toBe(expected.length);
      // the same rows, newest first (orders made in the same millisecond may tie here: the database
      // orders them by microseconds, then id)
      const got = answer.body.data.list as Sale[];
      expect(got.map((o) => o.id).sort(), prefix).toEqual(expected.map((o) => o.id).sort());
      expect(
        got.map((o) => o.createTime),
        prefix,
      ).toEqual(expected.map((o) => o.createTime));
      const page2 = (await api.get(`/api/erp/sale?pageSize=3&pageNum=2&orderNo=${encodeURIComponent(prefix)}`)).body.data;
      expect(
        page2.list.map((o: Sale) => o.id),
        prefix,
      ).toEqual(got.slice(3, 6).map((o) => o.id));
      // another sort through the same path: cheapest first, ties by id
      const cheapest = [...expected].sort((a, b) => a.totalAmount - b.totalAmount || a.id - b.id);
      const byAmount = await api.get(`/api/erp/sale?pageSize=200&sort=totalAmount:asc&orderNo=${encodeURIComponent(prefix)}`);
      expect(
        byAmount.body.data.list.map((o: Sale) => o.id),
        `${prefix} by amount`,
      ).toEqual(cheapest.map((o) => o.id));
    }
  });

  it('refuses to delete a category with children or products; members have unique mobiles', async () => {
    const parent = await api.post('/api/erp/category', { name: 'Tea', code: unique('C') });
    const child = await api.post('/api/erp/category', { name: 'Green', code: unique('C'), parentId: parent.body.data.id });
    expect(child.body.data.parentName).toBe('Tea');
    // the parent's name in the list and in the detail as well, under the parent filter
    const children = await api.get(`/api/erp/category?parentId=${parent.body.data.id}&name=Gree&status=0`);
    expect(children.body.data.list).toEqual([child.body.data]);
    expect((await api.get(`/api/erp/category/${child.body.data.id}`)).body.data).toEqual(child.body.data);
    expect(
      (
        await api.put(`/api/erp/category/${parent.body.data.id}`, {
          name: 'Tea',
          code: parent.body.data.code,
          parentId: child.body.data.id,
        })
      ).status,
    ).toBe(400);
    const withChild = await api.del(`/api/erp/category/${parent.body.data.id}`);
    expect([withChild.status, withChild.body.data?.count]).toEqual([409, 1]);
    expect(withChild.body.message).toContain('sub-categories');
    await api.post('/api/erp/product', { name: 'Longjing', code: unique('P'), categoryId: child.body.data.id, skus: [{ price: 1 }] });
    const withProduct = await api.del(`/api/erp/category/${child.body.data.id}`);
    expect([withProduct.status, withProduct.body.data?.count]).toEqual([409, 1]);
    expect(withProduct.body.message).toContain('1 product');
    const mobile = `139${String(Date.now()).slice(-8)}`;
    expect((await api.post('/api/erp/member', { name: 'Li', mobile })).status).toBe(200);
    const dup = await api.post('/api/erp/member', { name: 'Wang', mobile });
    expect(dup.status).toBe(409);
    expect(fieldsOf(dup.body)).toEqual(['mobile']);
    // a mobile matches from its start only, its wildcards taken literally
    const byPrefix = (text: string) => api.get(`/api/erp/member?mobile=${encodeURIComponent(text)}&pageSize=100`);
    expect((await byPrefix(mobile.slice(0, 7))).body.data.list.map((m: { mobile: string }) => m.mobile)).toContain(mobile);
    expect((await byPrefix(mobile.slice(3))).body.data.list.map((m: { mobile: string }) => m.mobile)).not.toContain(mobile);
    expect((await byPrefix('%')).body.data.total).toBe(0);
  });

  it('never shows or moves the ERP rows of another tenant (ids are per table; the cross-tenant matrix checks every route)', async () => {
    const w = await warehouse(api);
    const { skuId } = await product(api);
    const sale = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 1 }] });
    const other = await signIn(ctx, 'admin', 'Admin@123456');
    const seen = await other.get(`/api/erp/sale/${sale.body.data.id}`);
    expect(seen.status === 404 || seen.body.data.orderNo !== sale.body.data.orderNo).toBe(true);
    await other.put(`/api/erp/sale/${sale.body.data.id}/cancel`, {});
    expect((await api.get(`/api/erp/sale/${sale.body.data.id}`)).body.data.status).toBe('draft');
    expect(
      (await other.get('/api/erp/stock/ledger?pageSize=200')).body.data.list.some(
        (l: { refNo: string }) => l.refNo === sale.body.data.orderNo,
      ),
    ).toBe(false);
    expect((await other.get('/api/erp/warehouse/987654321')).status).toBe(404);
  });

  it('keeps the stock, ledger and SKU picker totals exact across writes (their kept totals go with each write)', async () => {
    const totalOf = async (path: string) => (await api.get(`${path}?pageSize=1`)).body.data.total as number;
    const paths = ['/api/erp/stock', '/api/erp/stock/ledger', '/api/erp/sku'] as const;
    const before = await Promise.all(paths.map(totalOf));
    expect(await Promise.all(paths.map(totalOf))).toEqual(before); // read again: from the kept totals
    const { skuId } = await product(api);
    const w = await warehouse(api);
    expect((await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: 3 })).status).toBe(200);
    expect(await Promise.all(paths.map(totalOf))).toEqual([before[0]! + 1, before[1]! + 1, before[2]! + 1]);
    const sale = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 1 }] });
    expect((await api.put(`/api/erp/sale/${sale.body.data.id}/confirm`, {})).status).toBe(200);
    expect(await totalOf('/api/erp/stock/ledger')).toBe(before[1]! + 2);
    // a filtered total is kept apart from the unfiltered one
    expect((await api.get(`/api/erp/stock/ledger?skuId=${skuId}&pageSize=1`)).body.data.total).toBe(2);
  });

  it('finds SKUs in the picker by a part of their product name or code or of their barcode, case-insensitively', async () => {
    const token = unique('kw');
    const code = unique('KC');
    const created = await api.post('/api/erp/product', {
      name: `Kettle ${token.toUpperCase()} steel`,
      code,
      specs: [{ name: 'Size', values: ['S', 'L'] }],
      skus: [
        { specValues: ['S'], price: 100, barcode: `${token}-one` },
        { specValues: ['L'], price: 200, barcode: `B${code}-two` },
      ],
    });
    expect(created.body).toMatchObject({ code: 200 });
    const [one, two] = (created.body.data.skus as { id: number }[]).map((s) => s.id);
    const picked = async (keyword: string) => {
      const page = (await api.get(`/api/erp/sku?keyword=${encodeURIComponent(keyword)}&pageSize=50`)).body.data;
      expect(page.total).toBe(page.list.length);
      return page.list as { id: number; productName: string; productCode: string }[];
    };
    // by the product's name (any part, any case) and code: both SKUs, in id order, with their product
    const byName = await picked(token);
    expect(byName.map((s) => s.id)).toEqual([one, two]);
    expect(byName[0]).toMatchObject({ productName: `Kettle ${token.toUpperCase()} steel`, productCode: code });
    expect((await picked(code.slice(1).toLowerCase())).map((s) => s.id)).toEqual([one, two]);
    // by a barcode: that SKU alone
    expect((await picked(`${token}-ONE`)).map((s) => s.id)).toEqual([one]);
    expect((await picked(`${code}-two`)).map((s) => s.id)).toEqual([two]);
    // wildcards are taken literally
    expect(await picked(`${token.slice(0, 2)}%${token.slice(3)}`)).toEqual([]);
    expect(await picked(`${token}_one`)).toEqual([]);
  });

  it('keeps every stock row equal to the sum of its ledger and never below zero (property)', async () => {
    const { skuId } = await product(api, 100);
    const w = await warehouse(api);
    const step = fc.oneof(
      fc.record({ op: fc.constant('adjust' as const), delta: fc.integer({ min: -5, max: 8 }).filter((d) => d !== 0) }),
      fc.record({ op: fc.constant('sell' as const), quantity: fc.integer({ min: 1, max: 4 }), cancel: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const s of steps) {
          if (s.op === 'adjust') await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId, delta: s.delta });
          else {
            const order = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: s.quantity }] });
            const confirm = await api.put(`/api/erp/sale/${order.body.data.id}/confirm`, {});
            if (s.cancel && confirm.status === 200) await api.put(`/api/erp/sale/${order.body.data.id}/cancel`, {});
          }
        }
        const ledger = await ledgerOf(api, skuId, w);
        const stock = await stockOf(api, skuId, w);
        expect(stock).toBeGreaterThanOrEqual(0);
        expect(ledger.reduce((sum, l) => sum + l.delta, 0)).toBe(stock);
        expect(ledger.every((l) => l.balance >= 0)).toBe(true);
      }),
      { numRuns: 15 },
    );
  });
});
