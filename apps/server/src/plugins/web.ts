import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { sendEnvelope } from './errors';

// paths that belong to the server (or to operators' tools), never to the web app's pages
const reserved = /^\/(api|metrics|healthz|readyz|mqtt|\.well-known)(\/|$)/;
// a browser asking for a page says text/html (or anything); a scraper or an API client does not
const acceptsHtml = (accept: string | undefined) => !accept || /text\/html|\*\/\*/.test(accept);

/**
 * Serves the built web app with an SPA fallback: any GET for a page (accepting HTML, outside
 * /api and the server's own paths such as /metrics) that is not a file answers index.html, and the app
 * shows its own not-found page. Other unknown paths get a 404 envelope.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { dist: string }) => {
    const hasWeb = existsSync(path.join(options.dist, 'index.html'));
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: options.dist,
        // looked up on disk per request, not listed once at start: a build written under a running
        // server serves its new index.html's new assets instead of a blank page until a restart
        wildcard: true,
        index: false,
        // the build writes .br and .gz siblings (apps/web/vite.config.ts): sent by Accept-Encoding, with Vary
        preCompressed: true,
        setHeaders(reply, file) {
          // hashed assets never change; index.html must always be revalidated
          if (file.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
          else reply.header('cache-control', 'no-cache');
        },
      });
      // the one folder that is a page: the app's root (the lookup would refuse a folder with 403)
      app.get('/', { config: { public: true } }, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
    } else {
      app.log.warn({ dist: options.dist }, 'web app is not built; only the API is served');
    }
    app.setNotFoundHandler((request, reply) => {
      if (app.methodNotAllowed(request, reply)) return reply;
      const url = request.url.split('?')[0] ?? '/';
      if (
        reserved.test(url) ||
        !hasWeb ||
        (request.method !== 'GET' && request.method !== 'HEAD') ||
        !acceptsHtml(request.headers.accept)
      ) {
        return sendEnvelope(reply, request, new AppError('routeNotFound'));
      }
      if (path.extname(url) && !url.endsWith('.html')) {
        return sendEnvelope(reply, request, new AppError('notFound'));
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web', dependencies: ['errors', 'input'] },
);
