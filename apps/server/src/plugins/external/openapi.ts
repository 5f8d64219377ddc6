import { errorCatalogue } from '@atrium/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { AppError } from '../../errors';
import { tokenOf } from './access';

const catalogue = Object.values(errorCatalogue)
  .map((e) => `| ${e.code} | ${e.status} | ${e.en} | ${e.zh} |`)
  .join('\n');

/**
 * OpenAPI generated from the routes' zod schemas: JSON at /api/docs/json, UI at /api/docs. API_DOCS=on
 * serves them to anyone, `signed-in` (the default with DATABASE_URL) to a caller with a valid session
 * (`Authorization: Bearer`, else 401), `off` not at all. Only these routes get swagger-ui's own, looser CSP.
 */
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
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description:
                'A session token from `POST /api/system/user/login`, or a personal API token (`atr_…`, `POST /api/user/token`) that acts as its owner in its tenant with its permissions the owner still holds.',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    // API_DOCS=off: the document stays available to the process (tests, tooling) but is not served
    if (app.config.API_DOCS === 'off') return;
    const signedIn = async (request: FastifyRequest) => {
      // a session or a personal API token (a generated client may fetch the document with its token)
      const result = await app.apiTokens.bearer(tokenOf(request));
      if (!result.ok) throw new AppError(result.code === 1302 ? 'sessionEnded' : 'tokenInvalid');
    };
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      ...(app.config.API_DOCS === 'signed-in' ? { uiHooks: { onRequest: signedIn } } : {}),
    });
  },
  { name: 'openapi' },
);
