import type { IncomingMessage } from 'node:http';
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
 * Strict-Transport-Security when HSTS=on (only behind TLS). The API docs page gets a looser CSP
 * (swagger-ui's inline scripts) when API_DOCS=on.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Arco sets style attributes and injects a few style elements at run time
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          // the MQTT client keeps its timers in a worker it creates from a blob: URL
          workerSrc: ["'self'", 'blob:'],
          connectSrc: ["'self'", (request) => brokerOrigins(app, (request as IncomingMessage).headers.host).join(' ')],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: app.config.HSTS ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      // the page loads the broker from another port: keep cross-origin isolation headers out of its way
      crossOriginEmbedderPolicy: false,
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
