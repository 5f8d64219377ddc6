import { errorCatalogue } from '@atrium/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const catalogue = Object.values(errorCatalogue)
  .map((e) => `| ${e.code} | ${e.status} | ${e.en} | ${e.zh} |`)
  .join('\n');

/** OpenAPI generated from the routes' zod schemas: JSON at /api/docs/json, UI at /api/docs (API_DOCS=on). */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Atrium API',
          version: '0.1.0',
          description: `Every response is \`{ code, message, data }\`; \`code\` 200 is success.\n\n| code | HTTP | message | 消息 |\n|---|---|---|---|\n${catalogue}`,
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    // API_DOCS=off: the document stays available to the process (tests, tooling) but is not served
    if (app.config.API_DOCS) await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'openapi' },
);
