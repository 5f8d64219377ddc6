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

/** Every setting the server reads from the environment. The README's configuration table mirrors it. */
export const configSchema = z.object({
  PORT: port(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATABASE_APP_URL: url(['postgres:', 'postgresql:']),
  REDIS_URL: url(['redis:', 'rediss:']),
  MQTT_URL: url(['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:']),
  // 0 picks a free port (tests run several brokers at once)
  MQTT_WS_PORT: port(8083, 0),
  // what browsers connect to when it is not this host's MQTT_WS_PORT (a TLS proxy, an external broker)
  MQTT_PUBLIC_URL: url(['ws:', 'wss:']),
  CAPTCHA: onOff('on'),
  // Strict-Transport-Security: only when every client reaches the server over TLS (a proxy in front)
  HSTS: onOff('off'),
  // the OpenAPI page and document at /api/docs
  API_DOCS: onOff('on'),
  REGISTRATION: onOff('on'),
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
  SEED: z.enum(['demo', 'none'], { error: 'must be "demo" or "none"' }).default('demo'),
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
  WEB_DIST: z.string().optional(),
});

export type Config = z.output<typeof configSchema>;

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
  return { ...result.data, DATA_DIR: path.resolve(result.data.DATA_DIR) };
}
