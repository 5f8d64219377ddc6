import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines } from '../helper';
import { type Caller, fieldsOf, signIn } from '../system/api';

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${seq++}`;

describe.each(engines)('mall goods on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let api: Caller;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    api = await signIn(ctx, 'acme', 'Acme@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function product() {
    const specs = [{ name: 'Size', values: ['S', 'L'] }];
    const res = await api.post('/api/erp/product', {
      name: 'Mug',
      code: unique('P'),
      specs,
      skus: [
        { specValues: ['S'], price: 1000 },
        { specValues: ['L'], price: 1500 },
      ],
    });
    expect(res.status).toBe(200);
    return res.body.data as { id: number; skus: { id: number }[] };
  }

  it('publishes a product with defaults; its stock is the ERP stock over all warehouses', async () => {
    const p = await product();
    const [s, l] = p.skus as [{ id: number }, { id: number }];
    const w1 = (await api.post('/api/erp/warehouse', { name: 'A', code: unique('W') })).body.data.id;
    const w2 = (await api.post('/api/erp/warehouse', { name: 'B', code: unique('W') })).body.data.id;
    await api.post('/api/erp/stock/adjust', { warehouseId: w1, skuId: s.id, delta: 4 });
    await api.post('/api/erp/stock/adjust', { warehouseId: w2, skuId: l.id, delta: 3 });
    const created = await api.post('/api/mall/goods', { productId: p.id });
    expect(created.status).toBe(200);
    const got = await api.get(`/api/mall/goods/${created.body.data.id}`);
    expect(got.body.data).toMatchObject({ title: 'Mug', shelf: 'off', stock: 7, price: 1000 });
    expect(got.body.data.skus.map((k: { price: number; stock: number }) => [k.price, k.stock])).toEqual([
      [1000, 4],
      [1500, 3],
    ]);
    expect((await api.post('/api/mall/goods', { productId: p.id })).status).toBe(409);
    expect(fieldsOf((await api.post('/api/mall/goods', { productId: 99999999 })).body)).toEqual(['productId']);
  });

  it('lists goods as their details: category, shelf and title filters, sorts and pages, live SKUs only, wildcards taken literally', async () => {
    const category = (await api.post('/api/erp/category', { name: unique('Cups'), code: unique('C') })).body.data.id as number;
    const mark = unique('g');
    const ids: number[] = [];
    for (const [i, title] of ['b', 'a', 'c'].entries()) {
      const res = await api.post('/api/erp/product', {
        name: 'Cup',
        code: unique('P'),
        categoryId: i < 2 ? category : undefined,
        specs: [{ name: 'Size', values: ['S', 'L'] }],
        skus: [
          { specValues: ['S'], price: 100 + i },
          { specValues: ['L'], price: 200 + i },
        ],
      });
      const p = res.body.data as { id: number; code: string; skus: { id: number; specValues: string[]; price: number }[] };
      const goods = (await api.post('/api/mall/goods', { productId: p.id })).body.data;
      ids.push(goods.id);
      const skus = p.skus.map((s) => ({ skuId: s.id, price: s.price }));
      expect((await api.put(`/api/mall/goods/${goods.id}`, { title: `${mark}${title}`, images: [], sort: 10 - i, skus })).status).toBe(200);
      if (i === 0) {
        // the L size stocked, then taken off the product: soft-deleted, and no longer the goods' SKU
        const w = (await api.post('/api/erp/warehouse', { name: 'W', code: unique('W') })).body.data.id;
        await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId: p.skus[1]!.id, delta: 5 });
        await api.post('/api/erp/stock/adjust', { warehouseId: w, skuId: p.skus[0]!.id, delta: 2 });
        const kept = { specValues: ['S'], price: 100, id: p.skus[0]!.id };
        const put = await api.put(`/api/erp/product/${p.id}`, {
          name: 'Cup',
          code: p.code,
          categoryId: category,
          specs: [{ name: 'Size', values: ['S'] }],
          skus: [kept],
        });
        expect(put.status).toBe(200);
      }
    }
    await api.put('/api/mall/goods/shelf', { ids: [ids[1]], shelf: 'on' });
    const list = async (query: string) => {
      const res = await api.get(`/api/mall/goods?title=${mark}&${query}`);
      expect(res.status).toBe(200);
      return res.body.data as { total: number; list: { id: number; title: string; stock: number; skus: unknown[] }[] };
    };
    const all = await list('pageSize=10');
    expect(all.total).toBe(3);
    expect(all.list.map((g) => g.title)).toEqual([`${mark}c`, `${mark}a`, `${mark}b`]); // sort ascending: 8, 9, 10
    for (const row of all.list) expect(row).toEqual((await api.get(`/api/mall/goods/${row.id}`)).body.data);
    const first = all.list.find((g) => g.id === ids[0])!;
    expect([first.skus.length, first.stock]).toEqual([1, 2]);
    expect((await list('sort=title:desc&pageSize=10')).list.map((g) => g.title)).toEqual([`${mark}c`, `${mark}b`, `${mark}a`]);
    const second = await list('sort=title:asc&pageSize=1&pageNum=2');
    expect([second.total, second.list.map((g) => g.title)]).toEqual([3, [`${mark}b`]]);
    const inCategory = await list(`categoryId=${category}&pageSize=10`);
    expect([inCategory.total, inCategory.list.map((g) => g.id).sort()]).toEqual([2, ids.slice(0, 2).sort()]);
    const onShelf = await list('shelf=on');
    expect([onShelf.total, onShelf.list.map((g) => g.id)]).toEqual([1, [ids[1]]]);
    const wild = await api.get(`/api/mall/goods?title=${encodeURIComponent('%_\\')}`);
    expect([wild.status, wild.body.data.total]).toEqual([200, 0]);
  });

  it('refuses to delete a published product from the ERP until its goods are deleted from the mall', async () => {
    const p = await product();
    const goods = (await api.post('/api/mall/goods', { productId: p.id })).body.data;
    const refused = await api.del(`/api/erp/product/${p.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('The product is published in the mall: delete it there first');
    expect((await api.del(`/api/erp/product/${p.id}`, 'zh-CN')).body.message).toBe('该商品已发布到商城，请先在商城中删除');
    expect((await api.get(`/api/erp/product/${p.id}`)).status).toBe(200);
    expect((await api.get(`/api/mall/goods/${goods.id}`)).body.data.productId).toBe(p.id);
    expect((await api.del(`/api/mall/goods/${goods.id}`)).status).toBe(200);
    expect((await api.del(`/api/erp/product/${p.id}`)).status).toBe(200);
    expect((await api.get(`/api/erp/product/${p.id}`)).status).toBe(404);
  });

  it('moves stock by deltas through the ledger, refuses going below zero, and a concurrent sale is kept', async () => {
    const p = await product();
    const goods = (await api.post('/api/mall/goods', { productId: p.id })).body.data;
    const skuId = p.skus[0]?.id as number;
    const up = await api.post(`/api/mall/goods/${goods.id}/stock`, { skuId, delta: 5, remark: 'count' });
    expect(up.status).toBe(200);
    expect(up.body.data.stock).toBe(5);
    // a sale in between: the next delta applies on top of it, nothing is overwritten
    const w = (await api.get(`/api/erp/stock?skuId=${skuId}`)).body.data.list[0].warehouseId;
    const sale = await api.post('/api/erp/sale', { warehouseId: w, items: [{ skuId, quantity: 2 }] });
    expect((await api.put(`/api/erp/sale/${sale.body.data.id}/confirm`, {})).status).toBe(200);
    const down = await api.post(`/api/mall/goods/${goods.id}/stock`, { skuId, delta: -2 });
    expect(down.body.data.stock).toBe(1);
    expect((await api.post(`/api/mall/goods/${goods.id}/stock`, { skuId, delta: -2 })).status).toBe(409);
    expect((await api.post(`/api/mall/goods/${goods.id}/stock`, { skuId, delta: 1.5 })).status).toBe(400);
    const ledger = (await api.get(`/api/erp/stock/ledger?skuId=${skuId}&pageSize=10`)).body.data.list;
    expect(ledger.map((l: { delta: number }) => l.delta)).toEqual([-2, -2, 5]);
  });

  it('takes images only from http(s) or this site, and opens detail links with rel="noopener noreferrer"', async () => {
    const p = await product();
    const goods = (await api.post('/api/mall/goods', { productId: p.id })).body.data;
    const skus = p.skus.map((s) => ({ skuId: s.id, price: 990 }));
    for (const image of [
      '//evil.example/a.png',
      '/\\evil.example/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      'https:///x',
    ]) {
      const refused = await api.put(`/api/mall/goods/${goods.id}`, { title: 'T', skus, images: [image] });
      expect([image, refused.status, fieldsOf(refused.body)]).toEqual([image, 400, ['images.0']]);
      const product = await api.post('/api/erp/product', { name: 'P', code: `img${Date.now()}`, images: [image], skus: [{ price: 1 }] });
      expect([image, product.status, fieldsOf(product.body)]).toEqual([image, 400, ['images.0']]);
    }
    const res = await api.put(`/api/mall/goods/${goods.id}`, {
      title: 'T',
      skus,
      images: ['https://cdn.example/a.png', '/uploads/a.png'],
      detail:
        '<p><a href="https://shop.example" target="_blank" rel="opener">x</a><a href="//evil.example">y</a><img src="//evil.example/i.png"></p>',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.images).toEqual(['https://cdn.example/a.png', '/uploads/a.png']);
    expect(res.body.data.detail).toBe(
      '<p><a href="https://shop.example" target="_blank" rel="noopener noreferrer">x</a><a rel="noopener noreferrer">y</a><img /></p>',
    );
  });

  it('updates title, mall prices (fen) and a sanitised detail; shelves one and many', async () => {
    const p = await product();
    const goods = (await api.post('/api/mall/goods', { productId: p.id })).body.data;
    const skus = p.skus.map((s, i) => ({ skuId: s.id, price: i === 0 ? 990 : 1500 }));
    const bad = await api.put(`/api/mall/goods/${goods.id}`, { title: '', skus: [] });
    expect(fieldsOf(bad.body).sort()).toEqual(['skus', 'title']);
    const res = await api.put(`/api/mall/goods/${goods.id}`, {
      title: '马克杯',
      subtitle: 'ceramic',
      images: [],
      sort: 3,
      skus,
      detail: '<p onclick="x()">Nice<script>alert(1)</script><img src="javascript:alert(1)"></p>',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: '马克杯', price: 990 });
    expect(res.body.data.detail).toBe('<p>Nice<img /></p>');
    const shelf = await api.put(`/api/mall/goods/${goods.id}/shelf`, { shelf: 'on' });
    expect(shelf.body.data.shelf).toBe('on');
    const batch = await api.put('/api/mall/goods/shelf', { ids: [goods.id], shelf: 'off' });
    expect(batch.body.data.updated).toBe(1);
    expect((await api.get(`/api/mall/goods?shelf=off&title=${encodeURIComponent('马克杯')}`)).body.data.total).toBe(1);
    const other = await signIn(ctx, 'user', 'User@123456');
    expect((await other.get(`/api/mall/goods/${goods.id}`)).status).toBeGreaterThanOrEqual(403);
    expect((await other.put('/api/mall/goods/shelf', { ids: [goods.id], shelf: 'on' })).status).toBeGreaterThanOrEqual(403);
  });
});
