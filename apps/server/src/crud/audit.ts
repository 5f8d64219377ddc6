import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { withTenantStatement } from '../db/client';
import { operLogs } from '../db/schema';

/** Route config: which module and action an operation-log entry names. */
export type AuditConfig = { module: string; action: string };

type AuditState = { target?: string; targetName?: string; before?: unknown; after?: unknown; error?: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditConfig;
  }
  interface FastifyRequest {
    auditState: AuditState | null;
  }
}

const SECRET = /password|token|secret|hash/i;
const MAX_VALUE = 200;

/** Keeps the summary small and free of secrets: changed fields only on updates, values truncated. */
export function summarize(before: unknown, after: unknown): Record<string, unknown> | null {
  const clean = (value: unknown): Record<string, unknown> | null => {
    if (!value || typeof value !== 'object') return null;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET.test(key)) continue;
      out[key] = typeof v === 'string' && v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE)}…` : v;
    }
    return out;
  };
  const b = clean(before);
  const a = clean(after);
  if (b && a) {
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
      if (key === 'updateTime' || key === 'updateBy') continue;
      if (JSON.stringify(b[key]) !== JSON.stringify(a[key])) changed[key] = { from: b[key], to: a[key] };
    }
    return { changed };
  }
  if (a) return { after: a };
  if (b) return { before: b };
  return null;
}

/**
 * What a person calls a row: its account or code and its name (`hq0001 张三`, `ceo 董事长`, `研发部`).
 * Stored with the log entry, so the entry still reads after the row is renamed or deleted.
 */
export function displayNameOf(row: unknown): string | undefined {
  if (!row || typeof row !== 'object') return undefined;
  const r = row as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined);
  const handle = text(r.accountId) ?? text(r.code) ?? text(r.orderNo) ?? text(r.number);
  const name = text(r.name) ?? text(r.nickname) ?? text(r.title);
  const parts = handle && name && handle !== name ? [handle, name] : [handle ?? name];
  const out = parts.filter(Boolean).join(' ');
  return out ? out.slice(0, 200) : undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this replaces
const UNSTORABLE = /\u0000|\p{Cs}/gu;

/**
 * A value as the log can store it (text and jsonb): a NUL or a lone surrogate (from a path id such as
 * `%00`, or an error that quotes the input) becomes U+FFFD, so refused input cannot cost the entry that
 * records it.
 */
function storable<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return value.replace(UNSTORABLE, '\uFFFD') as T;
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => storable(v, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v, depth + 1)])) as T;
}

/** Lets a handler say what it changed; the entry is written whatever the outcome. */
export function recordAudit(request: FastifyRequest, state: AuditState) {
  request.auditState = { ...request.auditState, ...state };
}

/**
 * Writes an operation-log entry for every route with `config.audit` that a signed-in caller reached:
 * who, tenant, action, target, before/after summary, result, duration, IP — failures too.
 * Written in onSend (before the answer leaves) as a statement of its own, so a rolled-back write is still logged.
 */
export const operLogPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('auditState', null);
    app.addHook('onError', async (request, _reply, error) => {
      if (request.routeOptions.config.audit) recordAudit(request, { error: error.message.slice(0, 1000) });
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const audit = request.routeOptions.config.audit;
      const caller = request.auth;
      if (!audit || !caller) return payload;
      const state = request.auditState ?? {};
      const params = request.params as { id?: unknown } | undefined;
      const ok = reply.statusCode < 400;
      try {
        await withTenantStatement(app.database.db, caller.tenantId, (tx) =>
          tx.insert(operLogs).values({
            tenantId: caller.tenantId,
            accountRef: caller.accountRef,
            operator: caller.accountId,
            module: audit.module,
            action: audit.action,
            target: storable((state.target ?? (params?.id !== undefined ? String(params.id) : null))?.slice(0, 200) ?? null),
            targetName: storable(state.targetName ?? displayNameOf(state.after) ?? displayNameOf(state.before) ?? null),
            method: request.method,
            url: storable(request.url.slice(0, 500)),
            ip: request.ip,
            summary: storable(summarize(state.before, state.after)),
            result: ok ? 'success' : 'failure',
            errorMessage: ok ? null : storable(state.error ?? `HTTP ${reply.statusCode}`),
            durationMs: Math.round(reply.elapsedTime),
            apiTokenId: caller.tokenId ?? null,
          }),
        );
      } catch (error) {
        // an audit failure must not turn a done write into an error answer; it is logged loudly instead
        request.log.error({ err: error }, 'operation log entry not written');
      }
      return payload;
    });
  },
  { name: 'oper-log' },
);
