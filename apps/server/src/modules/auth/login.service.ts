import type { LoginInput } from '@atrium/contracts';
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accounts, loginLogs, memberships, tenants } from '../../db/schema';
import { AppError } from '../../errors';
import { burnPasswordCheck, verifyPassword } from './password';

/** Five failed sign-ins in a row lock the account for ten minutes. */
export const MAX_FAILURES = 5;
export const LOCK_MS = 10 * 60 * 1000;

type LoginLogEntry = {
  account: string;
  result: 'success' | 'failure' | 'locked' | 'logout' | 'register';
  reason?: string | null;
  accountRef?: number | null;
  tenantId?: number | null;
};

/** Where the attempt came from: IP, device id and user agent. */
export function originOf(request: FastifyRequest, deviceId?: string | null) {
  const header = request.headers.device;
  return {
    ip: request.ip,
    deviceId: deviceId ?? (typeof header === 'string' ? header.slice(0, 64) : null),
    deviceType: typeof request.headers['device-type'] === 'string' ? request.headers['device-type'].slice(0, 20) : null,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 500) : null,
  };
}

/** One login-log row per attempt: never the password, never the token. */
export async function writeLoginLog(app: FastifyInstance, request: FastifyRequest, entry: LoginLogEntry, deviceId?: string | null) {
  const origin = originOf(request, deviceId);
  try {
    await app.database.db.insert(loginLogs).values({
      account: entry.account.slice(0, 100),
      result: entry.result,
      reason: entry.reason?.slice(0, 100) ?? null,
      accountRef: entry.accountRef ?? null,
      tenantRef: entry.tenantId ?? null,
      ip: origin.ip?.slice(0, 64) ?? null,
      deviceId: origin.deviceId,
      userAgent: origin.userAgent,
      createTime: app.clock.now(),
    });
  } catch (error) {
    request.log.error({ err: error }, 'login log entry not written');
  }
}

/** The account an identifier names: user number, phone or e-mail (case-insensitive where it matters). */
export async function findAccount(app: FastifyInstance, identifier: string) {
  const lowered = identifier.trim().toLowerCase();
  const [row] = await app.database.db
    .select({
      id: accounts.id,
      accountId: accounts.accountId,
      passwordHash: accounts.passwordHash,
      superAdmin: accounts.superAdmin,
      lockedUntil: accounts.lockedUntil,
      lastTenantId: accounts.lastTenantId,
    })
    .from(accounts)
    .where(
      or(sql`lower(${accounts.accountId}) = ${lowered}`, eq(accounts.phone, identifier.trim()), sql`lower(${accounts.email}) = ${lowered}`),
    )
    // an exact user number wins over a phone or e-mail that happens to look like one
    .orderBy(sql`case when lower(${accounts.accountId}) = ${lowered} then 0 else 1 end`)
    .limit(1);
  return row ?? null;
}

const formatUntil = (until: Date) => `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const lockedError = (until: Date) =>
  new AppError('accountLocked', { params: { until: formatUntil(until) }, data: { lockedUntil: until.toISOString() } });

/**
 * Tenants the account may enter right now, best first: the last one used, then by id.
 * A super admin may enter every enabled tenant.
 */
export async function enterableTenants(app: FastifyInstance, account: { id: number; superAdmin: boolean; lastTenantId: number | null }) {
  const now = app.clock.now();
  const open = and(eq(tenants.status, '0'), or(isNull(tenants.expireTime), gt(tenants.expireTime, now)));
  const order = [sql`case when ${tenants.id} = ${account.lastTenantId ?? 0} then 0 else 1 end`, asc(tenants.id)];
  const rows = account.superAdmin
    ? await app.database.db
        .select({ id: tenants.id })
        .from(tenants)
        .where(open)
        .orderBy(...order)
    : await app.database.db
        .select({ id: tenants.id })
        .from(memberships)
        .innerJoin(tenants, eq(tenants.id, memberships.tenantRef))
        .where(and(eq(memberships.accountId, account.id), open))
        .orderBy(...order);
  return rows.map((r) => r.id);
}

/** The first tenant the account may enter with an enabled membership, or null. */
async function pickTenant(app: FastifyInstance, account: { id: number; superAdmin: boolean; lastTenantId: number | null }) {
  for (const tenantId of await enterableTenants(app, account)) {
    const access = await app.sessions.access(account.id, tenantId, { fresh: true });
    if (access.ok) return tenantId;
  }
  return null;
}

/** Counts a failed password; the fifth in a row locks the account. Answers the lock's end when it locked. */
async function countFailure(app: FastifyInstance, accountRef: number): Promise<Date | null> {
  const until = new Date(app.clock.now().getTime() + LOCK_MS);
  const [row] = await app.database.db
    .update(accounts)
    .set({
      failedLogins: sql`case when ${accounts.failedLogins} + 1 >= ${MAX_FAILURES} then 0 else ${accounts.failedLogins} + 1 end`,
      lockedUntil: sql`case when ${accounts.failedLogins} + 1 >= ${MAX_FAILURES} then ${until} else ${accounts.lockedUntil} end`,
    })
    .where(eq(accounts.id, accountRef))
    .returning({ lockedUntil: accounts.lockedUntil });
  return row?.lockedUntil && row.lockedUntil.getTime() === until.getTime() ? until : null;
}

// names that match no account lock the same way, so the answers never tell which names exist
const unknownKey = (typed: string) => `login-fail:${typed.trim().toLowerCase().slice(0, 100)}`;
const unknownLockKey = (typed: string) => `login-lock:${typed.trim().toLowerCase().slice(0, 100)}`;

async function unknownLockedUntil(app: FastifyInstance, typed: string): Promise<Date | null> {
  const value = await app.store.get(unknownLockKey(typed));
  return value ? new Date(Number(value)) : null;
}

async function countUnknownFailure(app: FastifyInstance, typed: string): Promise<Date | null> {
  const { count } = await app.store.incr(unknownKey(typed), LOCK_MS * 6);
  if (count < MAX_FAILURES) return null;
  const until = new Date(app.clock.now().getTime() + LOCK_MS);
  await app.store.set(unknownLockKey(typed), String(until.getTime()), LOCK_MS);
  await app.store.del(unknownKey(typed));
  return until;
}

/**
 * Sign-in by user number, phone or e-mail. The same answer (1001) for a wrong password and an unknown
 * account; five failures in a row lock for ten minutes (1003 says until when). A fresh token every time.
 */
export async function login(app: FastifyInstance, request: FastifyRequest, input: LoginInput): Promise<{ token: string }> {
  const typed = input.account;
  const log = (entry: Omit<LoginLogEntry, 'account'>) => writeLoginLog(app, request, { account: typed, ...entry }, input.deviceId);
  if (app.captcha.enabled && !(await app.captcha.check(input.captchaId, input.code))) {
    await log({ result: 'failure', reason: 'captcha' });
    throw new AppError('captchaInvalid');
  }
  const account = await findAccount(app, typed);
  const now = app.clock.now();
  const lockedUntil = account ? account.lockedUntil : await unknownLockedUntil(app, typed);
  if (lockedUntil && lockedUntil.getTime() > now.getTime()) {
    await log({ result: 'locked', reason: 'locked', accountRef: account?.id });
    throw lockedError(lockedUntil);
  }
  const passwordOk = account?.passwordHash ? await verifyPassword(account.passwordHash, input.password) : false;
  if (!account?.passwordHash) await burnPasswordCheck(input.password);
  if (!account || !passwordOk) {
    const lockedNow = account ? await countFailure(app, account.id) : await countUnknownFailure(app, typed);
    await log({ result: 'failure', reason: account ? 'wrong password' : 'unknown account', accountRef: account?.id });
    if (lockedNow) throw lockedError(lockedNow);
    throw new AppError('loginFailed');
  }
  const tenantId = await pickTenant(app, account);
  if (tenantId === null) {
    await log({ result: 'failure', reason: 'no tenant', accountRef: account.id });
    throw new AppError('noTenant');
  }
  const origin = originOf(request, input.deviceId);
  const { token } = await app.sessions.create({ accountRef: account.id, tenantId, remember: input.remember, ...origin });
  await app.database.db
    .update(accounts)
    .set({ failedLogins: 0, lockedUntil: null, lastTenantId: tenantId })
    .where(eq(accounts.id, account.id));
  await log({ result: 'success', accountRef: account.id, tenantId });
  return { token };
}
