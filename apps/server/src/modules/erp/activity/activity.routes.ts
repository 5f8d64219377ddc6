import { activityEntity, activityResource, activitySchema, activityStatusInputSchema, idParamSchema } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { registerEntity } from '../../../crud/entity';
import { typedRoute } from '../../../crud/typed-route';
import { notFound } from '../../../errors';
import { activityRepository } from './activity.repository';

export async function activityRoutes(app: FastifyInstance) {
  const { setStatus, ...conventional } = activityRepository;
  registerEntity(app, activityEntity, conventional);
  // status is Y/N here, not the system entities' 0/1
  typedRoute(
    app,
    activityResource,
    {
      method: 'PUT',
      url: '/erp/activity/:id/status',
      action: 'status',
      params: idParamSchema,
      body: activityStatusInputSchema,
      response: activitySchema,
      write: true,
    },
    async (ctx, { params, body }) => {
      if (!(await activityRepository.get(ctx, params.id))) throw notFound();
      return setStatus(ctx, params.id, body.status);
    },
  );
}
