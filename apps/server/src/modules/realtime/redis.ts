/** ioredis connection options from a `redis://` or `rediss://` URL (the Redis clients of the backplane take options, not URLs). */
export function redisOptionsFromUrl(url: string) {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: db ? Number(db) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    // fail fast instead of queueing forever while Redis is away; the broker reports "not live" meanwhile
    maxRetriesPerRequest: 3,
  };
}
