import { envelopeOf } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const systemMetaSchema = z.object({
  product: z.string(),
  version: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  captcha: z.boolean(),
  registration: z.boolean(),
});

/** Public facts the sign-in screens need before anyone signs in. */
export async function metaRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/system/meta',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Public product facts (captcha and registration switches)',
        response: { 200: envelopeOf(systemMetaSchema) },
      },
    },
    async () => ({
      code: 200,
      message: 'ok',
      data: {
        product: 'Atrium',
        version: '0.1.0',
        engine: app.database.engine,
        captcha: app.config.CAPTCHA,
        registration: app.config.REGISTRATION,
      },
    }),
  );
}
