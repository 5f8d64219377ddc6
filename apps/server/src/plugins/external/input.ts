import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors';
import { sendEnvelope } from './errors';

/** What a stored string may not hold: U+0000, and a lone UTF-16 surrogate (not Unicode text at all). */
function textFault(text: string): { rule: string; message: string } | null {
  if (text.includes('\u0000')) return { rule: 'nul', message: 'value.nul' };
  // in a `u` expression a pair is one code point: only a lone surrogate is a surrogate here
  if (/\p{Cs}/u.test(text)) return { rule: 'unicode', message: 'value.unicode' };
  return null;
}

/**
 * The first string, or object key, that PostgreSQL cannot store as text or jsonb (a NUL, or a lone
 * surrogate, which JSON allows as `\udc00`), with its path; null when there is none.
 */
export function badTextPath(value: unknown, path: string[] = [], depth = 0): { field: string; rule: string; message: string } | null {
  const at = () => path.join('.') || 'body';
  if (typeof value === 'string') {
    const fault = textFault(value);
    return fault && { field: at(), ...fault };
  }
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    // a bad key is named by where the object sits (the key itself cannot be shown)
    const keyFault = textFault(key);
    if (keyFault) return { field: at(), ...keyFault };
    const hit = badTextPath(inner, [...path, key], depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/**
 * Input every route shares, checked before any schema or handler sees it:
 * - a NUL character or a lone UTF-16 surrogate in any body, query or path value (or an object key) is a
 *   400 naming the field: PostgreSQL stores neither in text or jsonb, so it would be a 500, and the
 *   write's log entry would be lost with the transaction;
 * - `Content-Type: application/json` with an empty body is "no payload", as the body-less calls
 *   (logout, userInfoLogin, menu) are documented to take;
 * - a known path asked with a method it does not answer is 405 with `Allow`, not 404;
 * - a body in any type but JSON (and the routes' own, such as the user import's spreadsheet) is 415:
 *   Fastify's own `text/plain` parser would hand a string to a schema that wants an object; an empty
 *   body of any type is no body.
 */
export const inputPlugin = fp(
  async (app: FastifyInstance) => {
    app.removeContentTypeParser('text/plain');
    // any other type: no body is no body (a client that labels every request, a DELETE included), and a
    // body is refused with 415 before a schema or handler sees it
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
      if ((body as Buffer).length === 0) done(null, undefined);
      else done(new AppError('unsupportedMediaType'), undefined);
    });
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch (error) {
        (error as Error & { statusCode?: number }).statusCode = 400;
        done(error as Error, undefined);
      }
    });

    app.addHook('preValidation', async (request) => {
      for (const value of [request.body, request.query, request.params]) {
        const fault = badTextPath(value);
        if (fault !== null) throw new AppError('validation', { fields: [fault] });
      }
    });

    // path patterns by method, compiled once every route is known
    let patterns: { method: string; pattern: RegExp }[] = [];
    app.addHook('onReady', async () => {
      patterns = app.routeRegistry.map((r) => ({
        method: r.method,
        pattern: new RegExp(`^${r.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`),
      }));
    });
    app.decorate('allowedMethods', (url: string) => {
      const path = url.split('?')[0] ?? '/';
      return [...new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method))];
    });
    app.decorate('methodNotAllowed', (request: Parameters<typeof sendEnvelope>[1], reply: Parameters<typeof sendEnvelope>[0]) => {
      const allowed = app.allowedMethods(request.url);
      if (!allowed.length || allowed.includes(request.method)) return false;
      if (allowed.includes('GET')) allowed.push('HEAD');
      reply.header('allow', allowed.join(', '));
      sendEnvelope(reply, request, new AppError('methodNotAllowed'));
      return true;
    });
  },
  { name: 'input', dependencies: ['errors'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods a concrete path is answered for (empty when no route matches it). */
    allowedMethods(url: string): string[];
    /** Answers 405 with `Allow` when the path exists under other methods; false when it does not apply. */
    methodNotAllowed(request: FastifyRequest, reply: FastifyReply): boolean;
  }
}
