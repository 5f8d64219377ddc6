import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typedRoute } from '../../../crud/typed-route';

export const systemMetaSchema = z.object({
  product: z.string(),
  version: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  captcha: z.boolean(),
  registration: z.boolean(),
});

/** Public facts the sign-in screens need before anyone signs in. */
export async function metaRoutes(app: FastifyInstance) {
  typedRoute(
    app,
    { domain: 'system', name: 'meta' },
    {
      method: 'GET',
      url: '/system/meta',
      public: true,
      response: systemMetaSchema,
      summary: 'Public product facts (captcha and registration switches)',
    },
    async () => ({
      product: 'Atrium',
      version: '0.1.0',
      engine: app.database.engine,
      captcha: app.config.CAPTCHA,
      registration: app.config.REGISTRATION,
    }),
  );
}
