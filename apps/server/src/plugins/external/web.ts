import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors';
import { sendEnvelope } from './errors';

// paths that belong to the server (or to operators' tools), never to the web app's pages
const reserved = /^\/(api|metrics|healthz|readyz|mqtt|\.well-known)(\/|$)/;
// a browser asking for a page says text/html (or anything); a scraper or an API client does not
const acceptsHtml = (accept: string | undefined) => !accept || /text\/html|\*\/\*/.test(accept);

const SNAPSHOT_PREFIX = 'atrium-web-snapshot-';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds that id
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Snapshots left by processes that did not stop cleanly (killed, crashed): their pid is gone. */
async function removeStaleSnapshots() {
  const tmp = os.tmpdir();
  const names = await readdir(tmp).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^atrium-web-snapshot-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) await rm(path.join(tmp, name), { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * A private copy of the web build as it is now, for this process to serve until it stops: files are
 * hard-linked (a build replaces its files rather than writing into them, so a link keeps the old
 * content) or copied where linking fails; HTML files, small and perhaps rewritten in place, are copied.
 */
export async function snapshotWebDist(dist: string): Promise<string> {
  await removeStaleSnapshots();
  const dir = await mkdtemp(path.join(os.tmpdir(), `${SNAPSHOT_PREFIX}${process.pid}-`));
  try {
    for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const from = path.join(entry.parentPath, entry.name);
      const to = path.join(dir, path.relative(dist, from));
      await mkdir(path.dirname(to), { recursive: true });
      if (entry.name.endsWith('.html')) await copyFile(from, to);
      else await link(from, to).catch(() => copyFile(from, to));
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/**
 * Serves the built web app with an SPA fallback: any GET for a page (accepting HTML, outside
 * /api and the server's own paths such as /metrics) that is not a file answers index.html, and the app
 * shows its own not-found page. Other unknown paths get a 404 envelope.
 *
 * It serves the build it started with (`snapshotWebDist`), not the folder: a build written under a
 * running server — an upgrade in place — changes nothing until the restart, so no browser gets a new
 * index.html whose assets this server does not have, nor a 404 for the page while the build runs.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { dist: string; captcha: boolean }) => {
    const hasWeb = existsSync(path.join(options.dist, 'index.html'));
    if (hasWeb) {
      const root = await snapshotWebDist(options.dist);
      app.addHook('onClose', () => rm(root, { recursive: true, force: true }));
      await app.register(fastifyStatic, {
        root,
        // files looked up per request under the snapshot, which never changes while this process runs
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
      // the sign-in page as the build prerendered it (ADR 041), with the captcha's field when the server asks for one
      const loginPage = options.captcha ? 'login.captcha.html' : 'login.html';
      const signIn = existsSync(path.join(root, loginPage)) ? loginPage : 'index.html';
      app.get('/login', { config: { public: true } }, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile(signIn));
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
