import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';

const port = (fallback: number, min = 1) =>
  z
    .string()
    .default(String(fallback))
    .refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) < 65536, `must be a port number between ${min} and 65535`)
    .transform(Number);

const url = (protocols: string[]) =>
  z
    .string()
    .optional()
    .refine(
      (v) => {
        if (v === undefined || v === '') return true;
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    )
    .transform((v) => (v ? v : undefined));

const onOff = (fallback: 'on' | 'off') =>
  z
    .enum(['on', 'off'], { error: 'must be "on" or "off"' })
    .default(fallback)
    .transform((v) => v === 'on');

const timeZone = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((name) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: name });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Shanghai');

/** Every setting the server reads from the environment. The README's configuration table mirrors it. */
export const configSchema = z.object({
  PORT: port(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATABASE_APP_URL: url(['postgres:', 'postgresql:']),
  // secrets at rest (environment secret variables, vendor keys): 32-byte keys in base64, the sealing one
  // first (more, comma-separated, open what older keys sealed); or a file holding them
  SECRETS_KEY: z.string().optional(),
  SECRETS_KEY_FILE: z.string().optional(),
  REDIS_URL: url(['redis:', 'rediss:']),
  MQTT_URL: url(['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:']),
  // 0 picks a free port (tests run several brokers at once)
  MQTT_WS_PORT: port(8083, 0),
  // plain MQTT over TCP on the embedded broker as well, for printers and agents without WebSocket; off when unset
  MQTT_TCP_PORT: z
    .string()
    .optional()
    .refine((v) => v === undefined || (/^\d+$/.test(v) && Number(v) < 65536), 'must be a port number between 0 and 65535')
    .transform((v) => (v === undefined ? undefined : Number(v))),
  // release agents: a running task without a heartbeat for this long is LOST and frees its lock
  RELEASE_LEASE_MS: z
    .string()
    .default('60000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 500 && Number(v) <= 3_600_000, 'must be milliseconds from 500 to 3600000')
    .transform(Number),
  // log bytes kept per step run; beyond it the log ends with a visible truncation line
  RELEASE_LOG_CAP_BYTES: z
    .string()
    .default('1048576')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1024 && Number(v) <= 100 * 1024 * 1024, 'must be bytes from 1024 to 104857600')
    .transform(Number),
  // how long an agent enrolment token may be used (once)
  RELEASE_ENROL_TOKEN_TTL_MS: z
    .string()
    .default('3600000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1000 && Number(v) <= 7 * 86_400_000, 'must be milliseconds from 1000 to 604800000')
    .transform(Number),
  // what browsers connect to when it is not this host's MQTT_WS_PORT (a TLS proxy, an external broker)
  MQTT_PUBLIC_URL: url(['ws:', 'wss:']),
  // how often the print outbox is looked at when nothing kicked it (milliseconds)
  PRINT_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  // first retry delay of a print job that met a transport error; it doubles each attempt, 5 attempts in all
  PRINT_RETRY_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  // the time zone receipts print their times in when the caller's browser does not say its own (X-Timezone)
  PRINT_TIME_ZONE: timeZone('Asia/Shanghai'),
  // the platform's time zone: a tenant without its own decides its business day (document numbers,
  // "today", "this month") in it; by default the zone of the machine the server runs on
  TIME_ZONE: timeZone(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
  // how often cloud printer vendors are asked whether the jobs they took have printed (milliseconds)
  PRINT_QUERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  // how long a printer of the built-in protocol may take to acknowledge a job it was sent before the job is
  // UNKNOWN (it may have printed: it is not sent again, and can be reprinted) (milliseconds)
  PRINT_ACK_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  // how often cloud printer vendors are asked whether each printer is online (milliseconds)
  PRINT_STATUS_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  // a print job still waiting for its printer after this long is EXPIRED, not printed late (milliseconds)
  PRINT_EXPIRE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 86_400_000)
    .default(86_400_000),
  // the cloud printer vendors' API base URLs (server configuration, never a tenant's: no request goes where a tenant says)
  PRINTER_FEIE_URL: z.url().default('https://api.feieyun.cn'),
  PRINTER_XPYUN_URL: z.url().default('https://open.xpyun.net'),
  PRINTER_YILIANYUN_URL: z.url().default('https://open-api.10ss.net'),
  PRINTER_SUNMI_URL: z.url().default('https://openapi.sunmi.com'),
  // how long a vendor may take to answer before the attempt counts as a transport error (milliseconds)
  PRINTER_VENDOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // the external broker's HTTP authentication/authorization hook (/api/mqtt/*) is served only when set
  MQTT_HOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  // EMQX's REST API, to disconnect the clients of ended sessions (needs the hook: it learns their client ids)
  EMQX_API_URL: url(['http:', 'https:']),
  EMQX_API_KEY: z.string().optional(),
  EMQX_API_SECRET: z.string().optional(),
  // passkeys (WebAuthn): the address people open Atrium at (`https://atrium.example.com`), which the browser
  // binds each passkey to; unset, each request's own host is taken (fine on one address, wrong behind a
  // proxy that rewrites the host). The relying-party id is its host name unless set here (a parent domain
  // shares passkeys across its subdomains)
  WEBAUTHN_ORIGIN: url(['http:', 'https:']),
  WEBAUTHN_RP_ID: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^[a-z0-9.-]{1,253}$/i.test(v), 'must be a host name such as atrium.example.com'),
  CAPTCHA: onOff('on'),
  // Strict-Transport-Security: only when every client reaches the server over TLS (a proxy in front)
  HSTS: onOff('off'),
  // the OpenAPI page and document at /api/docs: for anyone, for signed-in callers, or not served; by
  // default public only where nobody asked for a real database (DATABASE_URL unset), else signed-in
  API_DOCS: z.enum(['on', 'signed-in', 'off'], { error: 'must be "on", "signed-in" or "off"' }).optional(),
  REGISTRATION: onOff('on'),
  // a tenant's single sign-on issuer may be a plain http:// address (a provider on this machine or in a
  // test); off, only https:// issuers are accepted (docs/adr/049-single-sign-on-per-tenant.md)
  SSO_HTTP_ISSUERS: onOff('off'),
  SMTP_URL: url(['smtp:', 'smtps:']),
  LOGIN_RATE_LIMIT: z
    .string()
    .default('30')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100_000, 'must be a number of sign-in attempts per minute, 1 or more')
    .transform(Number),
  ADMIN_ACCOUNT: z
    .string()
    .default('admin')
    .refine((v) => /^[A-Za-z0-9_.-]{3,30}$/.test(v), 'must be 3 to 30 letters, digits, dots, dashes or underscores'),
  ADMIN_PASSWORD: z.string().max(128, 'must be at most 128 characters').optional(),
  // default: demo on the embedded database, none on PostgreSQL (loadConfig)
  SEED: z.enum(['demo', 'none'], { error: 'must be "demo" or "none"' }).optional(),
  // the key and channel namespace in Redis; default derived from the database (loadConfig)
  REDIS_PREFIX: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || /^[A-Za-z0-9_.:-]{1,64}$/.test(v),
      'must be 1 to 64 letters, digits, dots, dashes, underscores or colons',
    ),
  // connections per pool: one for writes and one for reads, and half as many for log entries (2.5 times this per instance)
  DATABASE_POOL_SIZE: z
    .string()
    .default('10')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 1000, 'must be a number of connections from 1 to 1000')
    .transform(Number),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  BODY_LIMIT: z
    .string()
    .default('1048576')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1024, 'must be a number of bytes, at least 1024')
    .transform(Number),
  // which proxies may set X-Forwarded-For: off (the socket address is the client), on (any), or a comma list of addresses/CIDRs
  TRUST_PROXY: z
    .string()
    .default('off')
    .refine(
      (v) => v === 'off' || v === 'on' || v.split(',').every((p) => /^[0-9a-fA-F.:/]+$/.test(p.trim())),
      'must be off, on, or a comma list of proxy addresses',
    )
    .transform((v): boolean | string[] => (v === 'off' ? false : v === 'on' ? true : v.split(',').map((p) => p.trim()))),
  // a request still unanswered after this long gets a 503 envelope (0: no limit)
  REQUEST_TIMEOUT_MS: z
    .string()
    .default('15000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 0 && Number(v) <= 3_600_000, 'must be a number of milliseconds (0 for no limit)')
    .transform(Number),
  // after SIGTERM: /readyz answers 503 for this long while requests are still served, then the listener closes
  SHUTDOWN_DRAIN_MS: z
    .string()
    .default('5000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 0 && Number(v) <= 3_600_000, 'must be a number of milliseconds')
    .transform(Number),
  // GET /metrics (Prometheus) is served only when set, to callers sending `Authorization: Bearer <token>`
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  WEB_DIST: z.string().optional(),
});

export type Config = Omit<z.output<typeof configSchema>, 'SEED' | 'REDIS_PREFIX' | 'API_DOCS'> & {
  SEED: 'demo' | 'none';
  REDIS_PREFIX: string;
  API_DOCS: 'on' | 'signed-in' | 'off';
};

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked = Object.fromEntries(Object.keys(configSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]));
  const result = configSchema.safeParse(picked);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'configuration');
    throw new ConfigError(`Invalid configuration: ${name}=${JSON.stringify(env[name] ?? '')} ${issue?.message ?? ''}`);
  }
  const data = { ...result.data, DATA_DIR: path.resolve(result.data.DATA_DIR) };
  checkExternalBroker(data, env);
  return {
    ...data,
    // demo accounts with published passwords only where nobody asked for a real database
    SEED: data.SEED ?? (data.DATABASE_URL ? 'none' : 'demo'),
    // a production install does not describe every route to whoever asks
    API_DOCS: data.API_DOCS ?? (data.DATABASE_URL ? 'signed-in' : 'on'),
    REDIS_PREFIX: redisPrefix(data),
  };
}

/** Settings that only make sense together: the hook and the REST API of an external broker (EMQX). */
function checkExternalBroker(
  data: Pick<z.output<typeof configSchema>, 'MQTT_URL' | 'MQTT_HOOK_SECRET' | 'EMQX_API_URL' | 'EMQX_API_KEY' | 'EMQX_API_SECRET'>,
  env: NodeJS.ProcessEnv,
) {
  const refuse = (name: string, message: string) => {
    throw new ConfigError(`Invalid configuration: ${name}=${JSON.stringify(env[name] ?? '')} ${message}`);
  };
  if (data.MQTT_HOOK_SECRET) {
    if (!data.MQTT_URL) refuse('MQTT_URL', 'is required with MQTT_HOOK_SECRET (the hook serves an external broker)');
    else if (!new URL(data.MQTT_URL).username)
      refuse('MQTT_URL', "must carry the server's own user and password with MQTT_HOOK_SECRET (the hook signs the server in with them)");
    // the hook lets the server's user in as a superuser: with no password, anyone could be it
    else if (!new URL(data.MQTT_URL).password)
      refuse('MQTT_URL', "carries a user without a password; with MQTT_HOOK_SECRET the server's own MQTT user needs one");
  }
  if (data.EMQX_API_URL) {
    if (!data.EMQX_API_KEY) refuse('EMQX_API_KEY', 'is required with EMQX_API_URL');
    if (!data.EMQX_API_SECRET) refuse('EMQX_API_SECRET', 'is required with EMQX_API_URL');
    if (!data.MQTT_HOOK_SECRET)
      refuse('MQTT_HOOK_SECRET', "is required with EMQX_API_URL (the hook tells the server which clients are a session's)");
  }
}

/**
 * The Redis namespace, ending in a colon: REDIS_PREFIX as given, else `atrium:<database name>:` on
 * PostgreSQL (instances of one deployment share it however their URLs are written), else a hash of the
 * embedded DATA_DIR (each data directory is a deployment of its own).
 */
function redisPrefix(data: { REDIS_PREFIX?: string; DATABASE_URL?: string; DATA_DIR: string }): string {
  if (data.REDIS_PREFIX) return data.REDIS_PREFIX.endsWith(':') ? data.REDIS_PREFIX : `${data.REDIS_PREFIX}:`;
  if (data.DATABASE_URL) {
    const url = new URL(data.DATABASE_URL);
    const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
    return `atrium:${name.replace(/[^A-Za-z0-9_.-]/g, '_')}:`;
  }
  return `atrium:${createHash('sha256').update(data.DATA_DIR).digest('hex').slice(0, 12)}:`;
}
