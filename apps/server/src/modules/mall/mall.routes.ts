import {
  goodsBatchShelfSchema,
  goodsEntity,
  goodsResource,
  goodsSchema,
  goodsShelfSchema,
  goodsStockSchema,
  idParamSchema,
  type Printer,
  printerEntity,
  printerResource,
  printJobEntity,
  printJobResource,
  printJobSchema,
  printOrderSchema,
  saleResource,
  type UpdatePrinterInput,
  vendorAccountInputSchema,
  vendorAccountSchema,
  vendorParamSchema,
} from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../../crud/context';
import { registerEntity } from '../../crud/entity';
import { typedRoute } from '../../crud/typed-route';
import { notFound } from '../../errors';
import { saleConfirmedHooks } from '../erp/sale/sale.service';
import { goodsService } from './goods.service';
import { printJobService } from './print-job.service';
import { PrintWorker } from './print-worker';
import { changesDevice, checkDevice, deviceIsCurrent, printerService } from './printer.service';
import { mqttDriver } from './printing/drivers/mqtt';
import { vendorAccountService, vendorDrivers } from './vendor-account.service';

/** Receipt printers and print jobs; the worker that dispatches them; devices of the built-in protocol. */
export async function mallRoutes(app: FastifyInstance) {
  const realtime = app.realtime;
  const mqtt = mqttDriver({
    // connected here; with instances sharing the broker, online as the device's status said
    online: (printer) => realtime.deviceConnected(printer.tenantId, printer.id) || (realtime.shared && printer.state === 'online'),
    publish: (topic, payload) => realtime.publishToDevice(topic, payload),
  });
  const worker = new PrintWorker({
    db: app.database.db,
    log: app.log.child({ module: 'print' }),
    drivers: { mqtt, simulator: mqtt },
    vendorDriver: vendorDrivers(
      app.database.db,
      {
        feie: { baseUrl: app.config.PRINTER_FEIE_URL, timeoutMs: app.config.PRINTER_VENDOR_TIMEOUT_MS },
        xpyun: { baseUrl: app.config.PRINTER_XPYUN_URL, timeoutMs: app.config.PRINTER_VENDOR_TIMEOUT_MS },
        yilianyun: { baseUrl: app.config.PRINTER_YILIANYUN_URL, timeoutMs: app.config.PRINTER_VENDOR_TIMEOUT_MS },
        sunmi: { baseUrl: app.config.PRINTER_SUNMI_URL, timeoutMs: app.config.PRINTER_VENDOR_TIMEOUT_MS },
      },
      app.secrets,
    ),
    publish: (input) => app.publish(input),
    pollMs: app.config.PRINT_POLL_MS,
    backoffMs: app.config.PRINT_RETRY_MS,
    expireMs: app.config.PRINT_EXPIRE_MS,
    followUpMs: app.config.PRINT_QUERY_MS,
    ackMs: app.config.PRINT_ACK_MS,
    statusMs: app.config.PRINT_STATUS_MS,
  });
  realtime.usePrinters({
    checkDevice: (sn, key) => checkDevice(app.database.db, sn, key),
    isCurrent: (printer) => deviceIsCurrent(app.database.db, printer),
    onMessage: (printer, kind, payload) => (kind === 'ack' ? worker.onAck(printer, payload) : worker.onStatus(printer, payload)),
    onDisconnect: (printer) => worker.setState(printer, 'offline'),
  });
  /** A printer whose device identity changed or ended: its open device connections are closed, on every instance. */
  const endDevice = (ctx: Ctx, printer: Printer) =>
    ctx.afterCommit(() =>
      realtime
        .endIdentity({ kind: 'printer', tenantId: ctx.caller.tenantId, printerId: printer.id, sn: printer.sn })
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not disconnect a printer')),
    );
  const kickAfter = (ctx: Ctx) => ctx.afterCommit(() => worker.kick());
  const printOnSale = async (ctx: Ctx, saleId: number) => {
    const ids = await printJobService.onSaleConfirmed(ctx, saleId);
    if (ids.length) kickAfter(ctx);
  };
  saleConfirmedHooks.push(printOnSale);
  // the list outlives this app (it is the module's): a closed app's worker is not kicked any more
  app.addHook('onClose', async () => {
    const at = saleConfirmedHooks.indexOf(printOnSale);
    if (at >= 0) saleConfirmedHooks.splice(at, 1);
  });

  // goods: the batch shelf route comes first, so `shelf` is not taken for an id
  typedRoute(
    app,
    goodsResource,
    {
      method: 'PUT',
      url: '/mall/goods/shelf',
      action: 'shelf',
      body: goodsBatchShelfSchema,
      response: z.object({ updated: z.number().int() }),
      write: true,
    },
    async (ctx, { body }) => ({ updated: await goodsService.shelve(ctx, body.ids, body.shelf) }),
  );
  registerEntity(app, goodsEntity, goodsService);
  typedRoute(
    app,
    goodsResource,
    {
      method: 'PUT',
      url: '/mall/goods/:id/shelf',
      action: 'shelf',
      params: idParamSchema,
      body: goodsShelfSchema,
      response: goodsSchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      if (!(await goodsService.shelve(ctx, [params.id], body.shelf))) throw notFound();
      return (await goodsService.get(ctx, params.id)) ?? Promise.reject(notFound());
    },
  );
  typedRoute(
    app,
    goodsResource,
    {
      method: 'POST',
      url: '/mall/goods/:id/stock',
      action: 'stock',
      params: idParamSchema,
      body: goodsStockSchema,
      response: goodsSchema,
      write: true,
    },
    async (ctx, { params, body }) => goodsService.moveStock(ctx, params.id, body),
  );

  // the tenant's cloud vendor accounts: before the printer entity, so `vendor-account` is not taken for an id
  typedRoute(
    app,
    printerResource,
    {
      method: 'GET',
      url: '/mall/printer/vendor-account',
      action: 'query',
      response: z.array(vendorAccountSchema),
      summary: "The tenant's accounts at the cloud printer vendors (the keys are never answered)",
    },
    (ctx) => vendorAccountService.list(ctx),
  );
  typedRoute(
    app,
    printerResource,
    {
      method: 'PUT',
      url: '/mall/printer/vendor-account/:vendor',
      action: 'update',
      params: vendorParamSchema,
      body: vendorAccountInputSchema,
      response: vendorAccountSchema,
      write: true,
      summary: "Sets the account a cloud vendor signs this tenant's print requests with; the key is write-only",
    },
    (ctx, { params, body }) => vendorAccountService.save(ctx, params.vendor, body),
  );
  typedRoute(
    app,
    printerResource,
    {
      method: 'DELETE',
      url: '/mall/printer/vendor-account/:vendor',
      action: 'update',
      params: vendorParamSchema,
      response: vendorAccountSchema,
      write: true,
    },
    (ctx, { params }) => vendorAccountService.remove(ctx, params.vendor),
  );
  registerEntity(app, printerEntity, {
    ...printerService,
    async update(ctx: Ctx, id: number, input: UpdatePrinterInput, before: Printer) {
      const after = await printerService.update(ctx, id, input);
      if (changesDevice(before, input)) endDevice(ctx, before);
      return after;
    },
    async remove(ctx: Ctx, id: number, before: Printer) {
      await printerService.remove(ctx, id);
      endDevice(ctx, before);
    },
  });
  registerEntity(app, printJobEntity, printJobService);
  typedRoute(
    app,
    printerResource,
    { method: 'POST', url: '/mall/printer/:id/test', action: 'test', params: idParamSchema, response: printJobSchema, write: true },
    async (ctx, { params }) => {
      const id = await printJobService.testPrint(ctx, params.id);
      kickAfter(ctx);
      return (await printJobService.get(ctx, id)) ?? Promise.reject(notFound());
    },
  );
  typedRoute(
    app,
    printJobResource,
    { method: 'PUT', url: '/mall/print-job/:id/cancel', action: 'cancel', params: idParamSchema, response: printJobSchema, write: true },
    async (ctx, { params }) => printJobService.cancel(ctx, params.id),
  );
  typedRoute(
    app,
    printJobResource,
    {
      method: 'POST',
      url: '/mall/print-job/:id/reprint',
      action: 'reprint',
      params: idParamSchema,
      response: printJobSchema,
      write: true,
      summary: 'Prints an ended job again: a new job with the same receipt for the same printer (a pending or sent one is refused)',
    },
    async (ctx, { params }) => {
      const id = await printJobService.reprint(ctx, params.id);
      kickAfter(ctx);
      return (await printJobService.get(ctx, id)) ?? Promise.reject(notFound());
    },
  );
  typedRoute(
    app,
    saleResource,
    {
      method: 'POST',
      url: '/erp/sale/:id/print',
      action: 'print',
      params: idParamSchema,
      body: printOrderSchema,
      response: printJobSchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      const id = await printJobService.printSale(ctx, params.id, body.printerId);
      kickAfter(ctx);
      return (await printJobService.get(ctx, id)) ?? Promise.reject(notFound());
    },
  );

  app.addHook('onReady', () => worker.start());
  // before the broker and the database close
  app.addHook('preClose', () => worker.stop());
}
