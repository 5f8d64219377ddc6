import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { hashPassword, verifyPassword } from '../modules/auth/password';
import { demoAccounts } from './identity';

type Retired = { id: number; accountId: string; outcome: 'replaced' | 'withdrawn' };

/**
 * An instance serving real data (SEED=none) takes no published demo password. A demo account that still
 * has its README password — a database first started with the demo data, then upgraded and serving for
 * real — loses it at start: the account named by ADMIN_ACCOUNT gets ADMIN_PASSWORD when one is given, the
 * others have no password until an administrator sets one. Their sessions end, on every instance, and the
 * log says what happened and what to do. With SEED=demo nothing changes: the operator asked for the demo.
 */
export async function retirePublishedPasswords(
  app: Pick<FastifyInstance, 'sessions' | 'log'>,
  database: Database,
  config: Config,
): Promise<Retired[]> {
  if (config.SEED === 'demo') return [];
  const retired: Retired[] = [];
  for (const demo of Object.values(demoAccounts)) {
    const [account] = await database.db
      .select({ id: accounts.id, accountId: accounts.accountId, passwordHash: accounts.passwordHash })
      .from(accounts)
      .where(sql`lower(${accounts.accountId}) = ${demo.accountId}`);
    if (!account) continue;
    const replacement = account.accountId.toLowerCase() === config.ADMIN_ACCOUNT.toLowerCase() ? config.ADMIN_PASSWORD : undefined;
    // withdrawn at an earlier start: ADMIN_PASSWORD gives the administrator a way in again
    if (!account.passwordHash && replacement) {
      await database.db
        .update(accounts)
        .set({ passwordHash: await hashPassword(replacement), passwordChangedAt: new Date() })
        .where(eq(accounts.id, account.id));
      app.log.warn(`account "${account.accountId}" had no password: it has ADMIN_PASSWORD now`);
      continue;
    }
    if (!account.passwordHash || !(await verifyPassword(account.passwordHash, demo.password))) continue;
    await database.db
      .update(accounts)
      .set({ passwordHash: replacement ? await hashPassword(replacement) : null, passwordChangedAt: new Date() })
      .where(eq(accounts.id, account.id));
    await app.sessions.end({ accountRef: account.id, reason: 'password' });
    retired.push({ id: account.id, accountId: account.accountId, outcome: replacement ? 'replaced' : 'withdrawn' });
    app.log.error(
      replacement
        ? `account "${account.accountId}" still had the demo password published in the README: it has ADMIN_PASSWORD now, and its sessions are ended`
        : `account "${account.accountId}" still had the demo password published in the README: it has no password now and its sessions are ended; ` +
            `an administrator sets a new one (user management, reset password)${account.accountId.toLowerCase() === config.ADMIN_ACCOUNT.toLowerCase() ? ', or start once with ADMIN_PASSWORD set' : ''}`,
    );
  }
  return retired;
}
