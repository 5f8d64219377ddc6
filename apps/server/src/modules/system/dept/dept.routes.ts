import { buildTree, deptResource, deptTreeSchema, envelopeOf, statusSchema, textFilter } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../../crud/context';
import { ok, registerResource, routeOptions } from '../../../crud/register-resource';
import { deptRepository } from './dept.repository';

const treeQuery = z.object({ status: statusSchema.optional(), name: textFilter(100) });

export async function deptRoutes(app: FastifyInstance) {
  // before the :id routes so "tree" is never read as an id
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      `${deptResource.basePath}/tree`,
      routeOptions(
        deptResource,
        'list',
        { querystring: treeQuery, response: { 200: envelopeOf(z.array(deptTreeSchema)) } },
        { summary: 'dept: tree' },
      ),
      async (request) =>
        ok(buildTree(await inTenant(request, (ctx) => deptRepository.all(ctx, request.query as z.output<typeof treeQuery>)))),
    );
  registerResource(app, deptResource, deptRepository);
}
