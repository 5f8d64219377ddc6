import type { FastifyInstance } from 'fastify';
import { activityRoutes } from './activity/activity.routes';
import { memberRoutes } from './member/member.routes';
import { productRoutes } from './product/product.routes';
import { saleRoutes } from './sale/sale.routes';
import { simpleErpRoutes } from './simple';
import { stockRoutes } from './stock/stock.routes';

/** Supply, sales and stock: the entities of the ERP manifests plus stock, transitions and points. */
export async function erpRoutes(app: FastifyInstance) {
  await app.register(simpleErpRoutes);
  await app.register(productRoutes);
  await app.register(stockRoutes);
  await app.register(saleRoutes);
  await app.register(activityRoutes);
  await app.register(memberRoutes);
}
