import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { withTenant } from '../src/db/client';
import { openSecrets, rotateSecrets, sealedKeyIds } from '../src/secrets/at-rest';
import { keyIdOf, newKeyText, parseKey, SecretBox } from '../src/secrets/box';
import { buildTestApp, engines, TEST_SECRETS_KEY, testConfig } from './helper';
import { type Caller, signIn } from './system/api';

const ENV_SECRET = 'env-Secret-value-7781';
const VENDOR_KEY = 'vendor-Key-value-3390';
const PLAIN_SECRET = 'plain-Before-encryption-5521';

describe('the secret box', () => {
  const k1 = parseKey(newKeyText())!;
  const k2 = parseKey(newKeyText())!;

  it('seals with AES-256-GCM under a key id, opens only with that key and the same context', () => {
    const box = new SecretBox([k1]);
    const sealed = box.seal('hunter2-secret', 'ctx:1');
    expect(sealed).toMatch(new RegExp(`^atrium-secret:v1:${k1.id}:`));
    expect(sealed).not.toContain('hunter2');
    expect(box.seal('hunter2-secret', 'ctx:1')).not.toBe(sealed);
    expect(box.open(sealed, 'ctx:1')).toBe('hunter2-secret');
    expect(() => box.open(sealed, 'ctx:2')).toThrow();
    expect(() => new SecretBox([k2]).open(sealed, 'ctx:1')).toThrow(/not among the configured keys/);
    const tampered = `${sealed.slice(0, -3)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-2)}`;
    expect(() => box.open(tampered, 'ctx:1')).toThrow();
    // rotation: the first key seals, every key opens
    const both = new SecretBox([k2, k1]);
    expect(both.open(sealed, 'ctx:1')).toBe('hunter2-secret');
    expect(both.current(sealed)).toBe(false);
    expect(both.current(both.seal('x', 'c'))).toBe(true);
    expect(() => new SecretBox([]).seal('x', 'c')).toThrow();
  });
});

describe.each(engines)('secrets at rest on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;
  let tenantId: number;
  const dirs: string[] = [];

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    tenantId = (await admin.get('/api/user/info')).body.data.tenantId as number;
  });
  afterAll(async () => {
    await ctx?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** Every stored secret column as the database holds it, read with plain SQL (what a dump shows). */
  const dump = async () =>
    withTenant(ctx.database.db, tenantId, async (tx) => {
      const envs = (await tx.execute(sql`select variables::text as v from release_envs`)) as unknown as { rows: { v: string }[] };
      const keys = (await tx.execute(sql`select account_key as v from printer_vendor_accounts`)) as unknown as { rows: { v: string }[] };
      return [...envs.rows, ...keys.rows].map((r) => r.v).join('\n');
    });
  /** The start-up step of the secrets on the same database, as a restart with this configuration does it (buildApp). */
  const restart = async (overrides: Record<string, string>) => {
    await openSecrets(testConfig(overrides), ctx.database, { info: () => {}, warn: () => {} });
  };

  it('stores secret variables and vendor keys encrypted: a dump of the rows holds none of them', async () => {
    const env = await admin.post('/api/release/env', {
      key: `sec${Date.now().toString(36)}`,
      name: 'Secret',
      variables: [
        { name: 'TOKEN', value: ENV_SECRET, secret: true },
        { name: 'REGION', value: 'north' },
      ],
    });
    expect(env.status).toBe(200);
    expect(JSON.stringify(env.body)).not.toContain(ENV_SECRET);
    const vendor = await admin.put('/api/mall/printer/vendor-account/feie', { accountUser: 'shop@example.com', accountKey: VENDOR_KEY });
    expect(vendor.status).toBe(200);
    const rows = await dump();
    expect(rows).not.toContain(ENV_SECRET);
    expect(rows).not.toContain(VENDOR_KEY);
    expect(rows).toContain('north');
    expect(rows.match(/atrium-secret:v1:/g)?.length).toBe(2);
    // kept when the secret is sent without a value, replaced when sent with one; still sealed
    const kept = await admin.put(`/api/release/env/${env.body.data.id}`, {
      name: 'Secret',
      variables: [
        { name: 'TOKEN', secret: true },
        { name: 'REGION', value: 'south' },
      ],
    });
    expect(kept.status).toBe(200);
    expect(await dump()).not.toContain(ENV_SECRET);
    const box = ctx.app.secrets;
    const [stored] = await withTenant(
      ctx.database.db,
      tenantId,
      async (tx) =>
        (
          (await tx.execute(sql`select variables from release_envs where id = ${env.body.data.id}`)) as unknown as {
            rows: { variables: { name: string; value: string }[] }[];
          }
        ).rows,
    );
    expect(box.open(stored!.variables.find((v) => v.name === 'TOKEN')!.value, `release.env.variable:${tenantId}`)).toBe(ENV_SECRET);
  });

  it('encrypts plain-text secrets on start, refuses to start without the key, and re-encrypts them all with a new key', async () => {
    // a row from before encryption
    await withTenant(ctx.database.db, tenantId, (tx) =>
      tx.execute(sql`insert into release_envs (tenant_id, key, name, variables)
                     values (${tenantId}, ${`old${Date.now().toString(36)}`}, 'Old',
                             ${JSON.stringify([{ name: 'OLD', value: PLAIN_SECRET, secret: true }])}::jsonb)`),
    );
    expect(await dump()).toContain(PLAIN_SECRET);
    await restart({});
    expect(await dump()).not.toContain(PLAIN_SECRET);
    const current = keyIdOf(parseKey(TEST_SECRETS_KEY)!.key);
    expect(await sealedKeyIds(ctx.database)).toEqual({ ids: new Map([[current, 3]]), plain: 0 });

    // no key (and, embedded, no key file in DATA_DIR): the encrypted rows could not be used
    const empty = await mkdtemp(path.join(os.tmpdir(), 'atrium-secrets-'));
    dirs.push(empty);
    await expect(restart({ SECRETS_KEY: '', DATA_DIR: empty })).rejects.toThrow(
      /3 stored secret\(s\) are encrypted, but neither SECRETS_KEY nor SECRETS_KEY_FILE is set/,
    );
    // a key that did not encrypt them: named, refused
    const other = newKeyText();
    await expect(restart({ SECRETS_KEY: other })).rejects.toThrow(new RegExp(`encrypted with key ${current}`));
    await expect(restart({ SECRETS_KEY: 'not-a-key' })).rejects.toThrow(/SECRETS_KEY: key 1 is not 32 bytes/);
    // the app does not start either
    await expect(buildApp({ config: testConfig({ SECRETS_KEY: other }), database: ctx.database, logger: false })).rejects.toThrow(
      /which SECRETS_KEY does not hold/,
    );

    // rotation: new key first, old after; then the new one alone is enough, the old alone is not
    const rotated = await rotateSecrets(ctx.database, new SecretBox([parseKey(other)!, parseKey(TEST_SECRETS_KEY)!]));
    expect(rotated).toBe(3);
    expect(await sealedKeyIds(ctx.database)).toEqual({ ids: new Map([[parseKey(other)!.id, 3]]), plain: 0 });
    expect(await dump()).not.toContain(ENV_SECRET);
    const file = path.join(empty, 'key');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, `${other}\n`, { mode: 0o600 }));
    await restart({ SECRETS_KEY: '', SECRETS_KEY_FILE: file });
    await expect(restart({})).rejects.toThrow(/which SECRETS_KEY does not hold/);
    // back to the suite's key, for the other tests of this app
    expect(await rotateSecrets(ctx.database, new SecretBox([parseKey(TEST_SECRETS_KEY)!, parseKey(other)!]))).toBe(3);
  });

  it.runIf(engine === 'pglite')('makes its own key file under DATA_DIR for the embedded demo when no key is given', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-secrets-'));
    dirs.push(dir);
    const own = await buildTestApp('pglite', { SECRETS_KEY: '', DATA_DIR: dir });
    try {
      const key = parseKey(await readFile(path.join(dir, 'secrets.key'), 'utf8'));
      expect(key).not.toBeNull();
      expect((await stat(path.join(dir, 'secrets.key'))).mode & 0o777).toBe(0o600);
      expect(own.app.secrets.currentId).toBe(key?.id);
    } finally {
      await own.close();
    }
  });
});
