import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../src/crud/business-day';
import { buildTestApp, engines } from './helper';
import { type Caller, fieldsOf, signIn } from './system/api';

// A tenant's business day is the calendar day of its time zone (ADR 034): document numbers carry it,
// whatever UTC's day or the caller's is.
describe.each(engines)("the tenant's business day on %s", (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;
  let acme: Caller;
  let tenant: { id: number; name: string; contact: string | null; expireTime: string | null; status: string; timeZone: string | null };

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    const list = await admin.get('/api/system/tenant?code=acme');
    tenant = list.body.data.list[0];
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const setZone = (timeZone: string | null) => {
    const { id, name, contact, expireTime, status } = tenant;
    return admin.put(`/api/system/tenant/${id}`, { name, contact, expireTime, status, timeZone });
  };

  it('is Asia/Shanghai for the demo tenants; an unknown zone is refused by field and changes nothing', async () => {
    expect(tenant.timeZone).toBe('Asia/Shanghai');
    const bad = await setZone('Mars/Olympus');
    expect([bad.status, fieldsOf(bad.body)]).toEqual([400, ['timeZone']]);
    expect((await admin.get(`/api/system/tenant/${tenant.id}`)).body.data.timeZone).toBe('Asia/Shanghai');
  });

  it("numbers a sales order with the day of the tenant's zone, not UTC's", async () => {
    const product = await acme.post('/api/erp/product', { name: 'Tea', code: `BD${Date.now().toString(36)}`, skus: [{ price: 100 }] });
    const warehouse = await acme.post('/api/erp/warehouse', { name: 'Day', code: `BDW${Date.now().toString(36)}` });
    const order = { warehouseId: warehouse.body.data.id, items: [{ skuId: product.body.data.skus[0].id, quantity: 1 }] };
    // at any moment at least one of these zones (UTC+14, UTC-11) is on another day than UTC
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      expect((await setZone(zone)).status).toBe(200);
      const sale = await acme.post('/api/erp/sale', order);
      expect(sale.status).toBe(200);
      const { orderNo, createTime } = sale.body.data as { orderNo: string; createTime: string };
      expect(orderNo.slice(2, 10), zone).toBe(dayIn(zone, new Date(createTime)).replaceAll('-', ''));
    }
    // cleared: the platform's zone (TIME_ZONE)
    expect((await setZone(null)).status).toBe(200);
    const sale = await acme.post('/api/erp/sale', order);
    expect(sale.body.data.orderNo.slice(2, 10)).toBe(dayIn(ctx.config.TIME_ZONE, new Date(sale.body.data.createTime)).replaceAll('-', ''));
  });
});
