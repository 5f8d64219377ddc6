import { idParamSchema, type SaleTransition, saleEntity, saleResource, saleSchema, saleTransitions } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { registerEntity } from '../../../crud/entity';
import { typedRoute } from '../../../crud/typed-route';
import { saleService } from './sale.service';

export async function saleRoutes(app: FastifyInstance) {
  registerEntity(app, saleEntity, saleService);
  for (const transition of Object.keys(saleTransitions) as SaleTransition[]) {
    typedRoute(
      app,
      saleResource,
      { method: 'PUT', url: `/erp/sale/:id/${transition}`, action: transition, params: idParamSchema, response: saleSchema, write: true },
      // another tenant's or a missing order: the transition finds no row and answers 404
      async (ctx, { params }) => saleService.transition(ctx, params.id, transition),
    );
  }
}
