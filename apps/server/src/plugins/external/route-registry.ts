import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

export type RegisteredRoute = {
  method: string;
  url: string;
  schema?: FastifySchema;
  config: { public?: boolean; permission?: string } & Record<string, unknown>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered, with its schema and config: what the generated attack suites walk. */
    routeRegistry: RegisteredRoute[];
  }
}

/** Records every route as it is added. Must be called before any route is registered. */
export function trackRoutes(app: FastifyInstance) {
  const routes: RegisteredRoute[] = [];
  app.decorate('routeRegistry', routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: route.url, schema: route.schema, config: (route.config ?? {}) as RegisteredRoute['config'] });
    }
  });
}
