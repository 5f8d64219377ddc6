import {
  conflictReasons,
  errorCatalogue,
  errorMessage,
  type FieldError,
  fieldMessage,
  type Language,
  pickLanguage,
  validationMessages,
} from '@atrium/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, issueMessage } from '../../errors';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
}

/** The request's part a validation error is about (`body`, `querystring`, `params`, `headers`). */
function validatedPart(request: FastifyRequest, context: string | undefined): unknown {
  if (context === 'querystring') return request.query;
  if (context === 'params') return request.params;
  if (context === 'headers') return request.headers;
  return request.body;
}

/** The value at `path` inside `root`, or undefined where the path leads nowhere. */
function valueAt(root: unknown, path: (string | number)[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function validationFields(
  error: FastifyError & {
    validation: { instancePath: string; keyword: string; message?: string; params?: Record<string, unknown> }[];
    validationContext?: string;
  },
  request: FastifyRequest,
): FieldError[] {
  const fields = error.validation.map((v) => {
    // the zod type provider hands over each issue as keyword (its code) and params (the rest of it)
    const issue = (v.params?.issue ?? { ...v.params, code: v.keyword }) as { path?: (string | number)[]; code?: string; input?: unknown };
    const parts = issue?.path?.length ? issue.path : v.instancePath.split('/').filter(Boolean);
    const path = parts.join('.');
    // a key of the message catalogue, said in the caller's language below; a refinement's own key stays.
    // The value sent (zod's issues leave it out) tells a missing field from one of the wrong type.
    const own = v.message && validationMessages[v.message] ? { message: v.message } : undefined;
    const sent = valueAt(validatedPart(request, error.validationContext), parts);
    const keyed =
      own ?? (issue?.code ? issueMessage(issue as Parameters<typeof issueMessage>[0], issue.input ?? sent) : { message: 'value.invalid' });
    return { field: path || (error.validationContext ?? 'body'), rule: v.keyword, ...keyed };
  });
  // two checks of one value can break alike (a huge id is past the maximum and not a safe integer): once
  const seen = new Set<string>();
  return fields.filter((f) => {
    const key = `${f.field}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// connection refused/reset, PostgreSQL's connection_exception (08) and operator_intervention (57P) classes,
// and too_many_connections (53300)
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300']);

/** The database is down, restarting or has no connection free: the client should retry later (503), not see a 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown; message?: string } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code && (unavailableCodes.has(e.code) || e.code.startsWith('08'))) return true;
    // 55000 is a broad class; only its "database … is not currently accepting connections" form means down
    if (e.code === '55000' && e.message && /not currently accepting connections/.test(e.message)) return true;
    // pg-pool's own timeout: every connection busy (the pool exhausted) or the server slow to accept one
    if (
      e.message &&
      /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        e.message,
      )
    )
      return true;
  }
  return false;
}

/** Sends `{code, message, data}` with the entry's HTTP status. */
export function sendEnvelope(reply: FastifyReply, request: FastifyRequest, error: AppError) {
  const reason = error.reason ? conflictReasons[error.reason] : undefined;
  const message = error.customMessage
    ? error.message
    : errorMessage(reason ? { ...error.entry, ...reason } : error.entry, request.lang, error.params);
  // a 429 or 503 that knows when to come back says so in the header clients and proxies read
  const retryAfter = error.data?.retryAfterSeconds;
  if (typeof retryAfter === 'number' && !reply.hasHeader('retry-after')) reply.header('retry-after', String(retryAfter));
  return reply.status(error.entry.status).send({ code: error.entry.code, message, data: translateFields(error.data, request.lang) });
}

// field messages given as keys (`password.weak`, `tree.cycle`) become sentences in the caller's language
function translateFields(data: Record<string, unknown> | null, lang: Language) {
  const fields = data?.fields as FieldError[] | undefined;
  if (!data || !Array.isArray(fields)) return data;
  return { ...data, fields: fields.map(({ params, ...f }) => ({ ...f, message: fieldMessage(f.message, lang, params) })) };
}

/**
 * Every failure becomes an envelope with a meaningful status: validation (400, naming each field),
 * malformed JSON (400), oversized body (413), unknown API path (404) and anything unexpected (500,
 * logged with the request id, never with its stack in the answer).
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('lang', 'zh-CN');
    app.addHook('onRequest', async (request) => {
      request.lang = pickLanguage(request.headers['accept-language']);
    });

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) return sendEnvelope(reply, request, error);
      if (hasZodFastifySchemaValidationErrors(error)) {
        return sendEnvelope(reply, request, new AppError('validation', { fields: validationFields(error, request) }));
      }
      if (
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        (error instanceof SyntaxError && error.statusCode === 400)
      ) {
        return sendEnvelope(reply, request, new AppError('malformedJson'));
      }
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
        return sendEnvelope(reply, request, new AppError('payloadTooLarge'));
      }
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) {
        return sendEnvelope(reply, request, new AppError('unsupportedMediaType'));
      }
      if (error.statusCode === 429) return sendEnvelope(reply, request, new AppError('rateLimited'));
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        return sendEnvelope(reply, request, new AppError('unavailable'));
      }
      if (error.validation) {
        return sendEnvelope(
          reply,
          request,
          new AppError('validation', {
            fields: error.validation.map((v) => ({
              field: v.instancePath.replace(/^\//, '') || 'body',
              rule: v.keyword,
              message: v.message ?? 'invalid',
            })),
          }),
        );
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        request.log.info({ err: error }, 'client error');
        return reply
          .status(error.statusCode)
          .send({ code: error.statusCode, message: errorMessage(errorCatalogue.badRequest, request.lang), data: null });
      }
      request.log.error({ err: error, reqId: request.id }, 'unexpected error');
      return reply.status(500).send({
        code: errorCatalogue.internal.code,
        message: errorMessage(errorCatalogue.internal, request.lang),
        data: { requestId: request.id },
      });
    });
  },
  { name: 'errors' },
);
