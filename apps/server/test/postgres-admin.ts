import pg from 'pg';

/** The PostgreSQL server tests use when one is reachable: DATABASE_URL_TEST or the local default. */
export const postgresAdminUrl = process.env.DATABASE_URL_TEST ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The address of database `name` on that server, as its owner. */
export function postgresDatabaseUrl(name: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops database `name` on that server, ending the connections still open to it. */
export async function dropPostgresDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}
