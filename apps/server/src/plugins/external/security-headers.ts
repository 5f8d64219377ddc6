import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The broker origins the page may open a WebSocket to: MQTT_PUBLIC_URL (or an external ws(s) broker)
 * when set, otherwise this host on the embedded broker's port, which differs from the page's.
 */
export function brokerOrigins(app: FastifyInstance, hostHeader: string | undefined): string[] {
  const url = app.realtime?.publicUrl;
  if (url) {
    const u = new URL(url);
    return [`${u.protocol}//${u.host}`];
  }
  const port = app.realtime?.port;
  if (!port) return [];
  // the Host header without its port ([::1]:8080 → [::1]); a malformed one allows no broker
  const host = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d+)?$/.exec(hostHeader ?? '')?.[1];
  if (!host) return [];
  return [`ws://${host}:${port}`, `wss://${host}:${port}`];
}

/**
 * The Content-Security-Policy: exactly what the app loads (its own scripts and styles, data: images, the
 * broker's WebSocket), and no framing.
 */
export function contentSecurityPolicy(broker: string[]): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    // Arco sets style attributes and injects a few style elements at run time
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    // the MQTT client keeps its timers in a worker it creates from a blob: URL
    ['worker-src', ["'self'", 'blob:']],
    ['connect-src', ["'self'", ...broker]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join(';');
}

const documentOnlyHeaders = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * Security headers on every answer (@fastify/helmet): a Content-Security-Policy allowing exactly what
 * the app loads (its own scripts and styles, data: images, the broker's WebSocket), no framing
 * (frame-ancestors 'none' and X-Frame-Options DENY: no clickjacking of force-logout or delete),
 * nosniff, a strict Referrer-Policy, a Permissions-Policy switching off device features, and
 * Strict-Transport-Security when HSTS=on (only behind TLS). The API docs routes alone get a looser CSP
 * (swagger-ui's inline scripts) when they are served (API_DOCS=on or signed-in).
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      // written below, from a policy kept per Host header: helmet would rebuild it on every answer
      contentSecurityPolicy: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: app.config.HSTS ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      // the page loads the broker from another port: keep cross-origin isolation headers out of its way
      crossOriginEmbedderPolicy: false,
    });
    const policies = new Map<string, string>();
    app.addHook('onRequest', async (request, reply) => {
      const host = request.headers.host ?? '';
      let policy = policies.get(host);
      if (policy === undefined) {
        policy = contentSecurityPolicy(brokerOrigins(app, host));
        // kept once the broker's address is known; a flood of made-up Host headers is not kept
        if ((app.realtime?.port || app.realtime?.publicUrl) && policies.size < 64) policies.set(host, policy);
      }
      reply.header('content-security-policy', policy);
    });
    app.addHook('onSend', async (request, reply) => {
      // the app's hashed scripts and styles are never documents: the document-only headers would add
      // ~650 bytes to each of the ~60 files a page loads (CSP and framing apply to the page that loads them)
      if (request.url.startsWith('/assets/')) {
        for (const name of documentOnlyHeaders) reply.removeHeader(name);
        return;
      }
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()');
    });
  },
  { name: 'security-headers', dependencies: ['errors'] },
);
