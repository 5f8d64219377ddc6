import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Config } from '../config';
import { type Database, type Tx, withTenant } from '../db/client';
import { accountFactors, printerVendorAccounts, type ReleaseVariable, releaseEnvs, tenantSso, tenants } from '../db/schema';
import { SecretBox as Box, isSealed, parseKeys, type SecretBox, type SecretKey, sealedWith } from './box';

/** Where the embedded (PGlite) demo keeps the key it made itself when none was given. */
export const keyFileOf = (config: Pick<Config, 'DATA_DIR'>) => path.join(config.DATA_DIR, 'secrets.key');

/** The context each kind of secret is sealed under (the GCM additional data). */
export const secretContext = {
  releaseEnv: (tenantId: number) => `release.env.variable:${tenantId}`,
  vendorKey: (tenantId: number, vendor: string) => `mall.vendor.key:${tenantId}:${vendor}`,
  /** an account's authenticator-app secret: accounts are global, so the account names it */
  totp: (accountRef: number) => `account.totp:${accountRef}`,
  /** a tenant's OpenID Connect client secret (the settings are global rows keyed by the tenant) */
  ssoClient: (tenantId: number) => `tenant.sso.client:${tenantId}`,
};

/** Every secret column: what a sweep reads, turns and writes back, tenant by tenant. */
type Sweep = (tx: Tx, tenantId: number, turn: (value: string, context: string) => string | null) => Promise<number>;

const sweeps: Record<string, Sweep> = {
  'release_envs.variables': async (tx, tenantId, turn) => {
    let changed = 0;
    for (const env of await tx.select({ id: releaseEnvs.id, variables: releaseEnvs.variables }).from(releaseEnvs)) {
      let touched = false;
      const variables: ReleaseVariable[] = env.variables.map((v) => {
        if (!v.secret) return v;
        const next = turn(v.value, secretContext.releaseEnv(tenantId));
        if (next === null) return v;
        touched = true;
        return { ...v, value: next };
      });
      if (!touched) continue;
      await tx.update(releaseEnvs).set({ variables }).where(eq(releaseEnvs.id, env.id));
      changed += variables.filter((v, i) => v !== env.variables[i]).length;
    }
    return changed;
  },
  'printer_vendor_accounts.account_key': async (tx, tenantId, turn) => {
    let changed = 0;
    for (const row of await tx
      .select({ vendor: printerVendorAccounts.vendor, key: printerVendorAccounts.accountKey })
      .from(printerVendorAccounts)) {
      const next = turn(row.key, secretContext.vendorKey(tenantId, row.vendor));
      if (next === null) continue;
      await tx
        .update(printerVendorAccounts)
        .set({ accountKey: next })
        .where(and(eq(printerVendorAccounts.tenantId, tenantId), eq(printerVendorAccounts.vendor, row.vendor)));
      changed++;
    }
    return changed;
  },
};

/** Secrets in global tables: the accounts' second factors (accounts are global) and the tenants' SSO client secrets. */
async function sweepGlobal(database: Database, turn: (value: string, context: string) => string | null): Promise<number> {
  let changed = 0;
  for (const row of await database.db
    .select({ tenantRef: tenantSso.tenantRef, secret: tenantSso.clientSecret })
    .from(tenantSso)
    .where(isNotNull(tenantSso.clientSecret))) {
    const next = turn(row.secret as string, secretContext.ssoClient(row.tenantRef));
    if (next === null) continue;
    await database.db.update(tenantSso).set({ clientSecret: next }).where(eq(tenantSso.tenantRef, row.tenantRef));
    changed++;
  }
  for (const row of await database.db
    .select({ id: accountFactors.id, accountRef: accountFactors.accountRef, secret: accountFactors.secret })
    .from(accountFactors)
    // the passkeys' row keeps no secret (docs/adr/050-passkeys.md)
    .where(eq(accountFactors.kind, 'totp'))) {
    const next = turn(row.secret, secretContext.totp(row.accountRef));
    if (next === null) continue;
    await database.db.update(accountFactors).set({ secret: next }).where(eq(accountFactors.id, row.id));
    changed++;
  }
  return changed;
}

/** Runs `turn` over every secret of every tenant, each tenant in one transaction, then the global ones; how many changed. */
async function sweepAll(database: Database, turn: (value: string, context: string) => string | null): Promise<number> {
  let changed = await sweepGlobal(database, turn);
  for (const { id } of await database.db.select({ id: tenants.id }).from(tenants)) {
    changed += await withTenant(database.db, id, async (tx) => {
      let n = 0;
      for (const sweep of Object.values(sweeps)) n += await sweep(tx, id, turn);
      return n;
    });
  }
  return changed;
}

/** The ids of the keys stored secrets are sealed with, and how many are still plain. */
export async function sealedKeyIds(database: Database): Promise<{ ids: Map<string, number>; plain: number }> {
  const ids = new Map<string, number>();
  let plain = 0;
  await sweepAll(database, (value) => {
    const id = sealedWith(value);
    if (id) ids.set(id, (ids.get(id) ?? 0) + 1);
    else plain++;
    return null;
  });
  return { ids, plain };
}

export class SecretsConfigError extends Error {}

/** The keys the operator gave: SECRETS_KEY, else the file SECRETS_KEY_FILE names; none when neither is set. */
export async function configuredKeys(config: Pick<Config, 'SECRETS_KEY' | 'SECRETS_KEY_FILE'>): Promise<SecretKey[]> {
  let text = config.SECRETS_KEY;
  let name = 'SECRETS_KEY';
  if (!text && config.SECRETS_KEY_FILE) {
    name = 'SECRETS_KEY_FILE';
    text = await readFile(config.SECRETS_KEY_FILE, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new SecretsConfigError(`SECRETS_KEY_FILE=${config.SECRETS_KEY_FILE} cannot be read (${error.code ?? error.message})`);
    });
  }
  if (!text) return [];
  const parsed = parseKeys(text);
  if ('bad' in parsed)
    throw new SecretsConfigError(`${name}: key ${parsed.bad} is not 32 bytes in base64 (make one with: openssl rand -base64 32)`);
  if (parsed.keys.length === 0) throw new SecretsConfigError(`${name} holds no key`);
  return parsed.keys;
}

/**
 * The secrets at start-up: the operator's keys, or — embedded only — the key file under DATA_DIR,
 * made on the first start. Refuses to start when stored secrets are sealed with a key that is not
 * given (no key at all included): they could not be used, and a new key would not open them. Then seals
 * every secret still in plain text (rows from before encryption, or written while no key was set):
 * a migration cannot, it does not know the key.
 */
export async function openSecrets(
  config: Pick<Config, 'SECRETS_KEY' | 'SECRETS_KEY_FILE' | 'DATA_DIR'>,
  database: Database,
  log: { info(o: object, m: string): void; warn(o: object, m: string): void },
): Promise<SecretBox> {
  let keys = await configuredKeys(config);
  const stored = await sealedKeyIds(database);
  if (keys.length === 0 && database.engine === 'pglite') keys = await embeddedKey(config, stored.ids.size > 0);
  const missing = [...stored.ids.keys()].filter((id) => !keys.some((k) => k.id === id));
  if (missing.length > 0) {
    const count = missing.reduce((n, id) => n + (stored.ids.get(id) ?? 0), 0);
    throw new SecretsConfigError(
      keys.length === 0
        ? `${count} stored secret(s) are encrypted, but neither SECRETS_KEY nor SECRETS_KEY_FILE is set: give the key they were encrypted with`
        : `${count} stored secret(s) are encrypted with key ${missing.join(', ')}, which SECRETS_KEY does not hold: add it (after the current key) or run npm run secrets:rotate with it`,
    );
  }
  const box = new Box(keys);
  if (!box.ready) {
    if (stored.plain > 0)
      log.warn({ plain: stored.plain }, 'secrets are stored in plain text: set SECRETS_KEY (or SECRETS_KEY_FILE) to encrypt them');
    return box;
  }
  const sealed = await sweepAll(database, (value, context) => (isSealed(value) ? null : box.seal(value, context)));
  if (sealed > 0) log.info({ sealed }, 'secrets stored in plain text were encrypted');
  return box;
}

/** The embedded demo's own key: read, or made when no secret is sealed yet (a new key opens nothing old). */
async function embeddedKey(config: Pick<Config, 'DATA_DIR'>, anySealed: boolean): Promise<SecretKey[]> {
  const file = keyFileOf(config);
  const read = async () => {
    const parsed = parseKeys(await readFile(file, 'utf8'));
    if ('bad' in parsed || parsed.keys.length === 0) throw new SecretsConfigError(`${file} does not hold a key`);
    return parsed.keys;
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (anySealed) return [];
  await mkdir(config.DATA_DIR, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}

/** Re-encrypts every stored secret that is not sealed with the first key (plain ones included); how many. */
export function rotateSecrets(database: Database, box: SecretBox): Promise<number> {
  return sweepAll(database, (value, context) => (box.current(value) ? null : box.seal(box.open(value, context), context)));
}
