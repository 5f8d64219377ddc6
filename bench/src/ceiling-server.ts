// The two ceilings every scenario is compared with, each in its own process like the real server:
// `json` — a bare Fastify route answering a small JSON body; `pg` — a bare Fastify route running one
// indexed `SELECT … LIMIT 20` through a pg pool.
import Fastify from 'fastify';
import pg from 'pg';

const mode = process.argv[2];
const port = Number(process.argv[3]);
const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ ok: true }));

if (mode === 'json') {
  app.get('/ceiling', async () => ({ code: 200, message: 'ok', data: { hello: 'world', n: 42 } }));
} else if (mode === 'pg') {
  const pool = new pg.Pool({ connectionString: process.env.CEILING_DATABASE_URL, max: 10 });
  app.get('/ceiling', async () => {
    const result = await pool.query(
      'select id, account_id, nickname, email, create_time from accounts where id > $1 order by id limit 20',
      [1_000_000 + Math.floor(Math.random() * 90_000)],
    );
    return { code: 200, message: 'ok', data: result.rows };
  });
  app.addHook('onClose', () => pool.end());
} else {
  throw new Error(`unknown ceiling mode ${mode}`);
}

await app.listen({ port, host: '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.close().then(() => process.exit(0)));
