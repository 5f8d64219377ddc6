import { createHash, randomBytes } from 'node:crypto';
import {
  type LoginInput,
  type LoginResult,
  loginLogResource,
  type MfaLoginInput,
  type SignInResult,
  type WebauthnResponse,
} from '@atrium/contracts';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidField } from '../../crud/conflict';
import { dropTotals, totalsName } from '../../crud/totals';
import { type Db, type Tx, withTenantStatement } from '../../db/client';
import { accounts, knownDevices, loginLogs, sessions } from '../../db/schema';
import { builtStatements, statementCache } from '../../db/statements';
import { AppError } from '../../errors';
import { type AuthContext, tokenOf } from '../../plugins/external/access';
import { beginTotp, confirmTotp, methodsOf, policyRequires, useSecondFactor } from './mfa.service';
import { assertionOptions, signInChallengeKey, usePasskey } from './passkey.service';
import { burnPasswordCheck, verifyPassword } from './password';

const MINUTE = 60_000;

/**
 * Sign-in locks. Failures are counted per (account, source) — the source is the device when it is a
 * known one, else the network address — and per account from every source. A lock lasts `firstLockMs`,
 * doubling with each further lock of the same counter within `levelMemoryMs`, up to `maxLockMs`.
 * A known device only ever meets its own lock: nobody elsewhere can lock the owner out of it.
 */
export const LOCKOUT = {
  sourceThreshold: 5,
  accountThreshold: 20,
  windowMs: 60 * MINUTE,
  firstLockMs: 10 * MINUTE,
  maxLockMs: 4 * 60 * MINUTE,
  levelMemoryMs: 24 * 60 * MINUTE,
} as const;

/** The cookie naming a device the account signed in from before; it lives as long as the record. */
export const DEVICE_COOKIE = 'atrium_device';
export const DEVICE_TTL_MS = 90 * 24 * 60 * MINUTE;
/** How many devices an account keeps known: the most recently used. */
export const MAX_KNOWN_DEVICES = 20;

type LoginLogEntry = {
  account: string;
  result: LoginResult;
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
function loginLogRow(app: FastifyInstance, request: FastifyRequest, entry: LoginLogEntry, deviceId?: string | null) {
  const origin = originOf(request, deviceId);
  return {
    account: entry.account.slice(0, 100),
    result: entry.result,
    reason: entry.reason?.slice(0, 100) ?? null,
    accountRef: entry.accountRef ?? null,
    tenantRef: entry.tenantId ?? null,
    ip: origin.ip?.slice(0, 64) ?? null,
    deviceId: origin.deviceId,
    userAgent: origin.userAgent,
    createTime: app.clock.now(),
  };
}

/** The login log list keeps its totals (crud/totals.ts): each entry written into a tenant drops them. */
const LOGIN_LOG_TOTALS = totalsName(loginLogResource);

/** Writes one login-log row on its own; a failure to write it is logged, never the caller's failure. */
export async function writeLoginLog(app: FastifyInstance, request: FastifyRequest, entry: LoginLogEntry, deviceId?: string | null) {
  const row = loginLogRow(app, request, entry, deviceId);
  try {
    // row-level security: a tenant's row is written with that tenant set, a tenant-less one with none
    if (entry.tenantId) {
      await withTenantStatement(app.database.db, entry.tenantId, (tx) => tx.insert(loginLogs).values(row));
      dropTotals(app, entry.tenantId, LOGIN_LOG_TOTALS);
    } else await app.database.db.insert(loginLogs).values(row);
  } catch (error) {
    request.log.error({ err: error }, 'login log entry not written');
  }
}

/** Ends the caller's session (when its token is a live one) and logs it; the session's auth, or null. */
export async function signOut(app: FastifyInstance, request: FastifyRequest): Promise<AuthContext | null> {
  const resolved = await app.sessions.resolve(tokenOf(request));
  if (!resolved.ok) return null;
  const { auth } = resolved;
  await app.sessions.end({ sessionIds: [auth.sessionId], reason: 'logout' });
  await writeLoginLog(app, request, { account: auth.accountId, result: 'logout', accountRef: auth.accountRef, tenantId: auth.tenantId });
  return auth;
}

/** The statements of a sign-in, built once (crud/statements.ts): each sign-in only binds its values. */
const p = sql.placeholder;
const signInStatements = statementCache('sign-in');
const admitStatements = builtStatements('sign-in');

/** The tenants an account may enter right now, best first (the last one used, then by id). */
const enterable = sql`from tenants t
         where t.status = '0' and (t.expire_time is null or t.expire_time > ${p('now')})
           and (accounts.super_admin
                or exists (select 1 from memberships m where m.account_id = accounts.id and m.tenant_ref = t.id))
         order by case when t.id = coalesce(accounts.last_tenant_id, 0) then 0 else 1 end, t.id`;

const accountStatement = (db: Db | Tx) =>
  db
    .select({
      id: accounts.id,
      accountId: accounts.accountId,
      passwordHash: accounts.passwordHash,
      superAdmin: accounts.superAdmin,
      passwordChangedAt: accounts.passwordChangedAt,
      lastTenantId: accounts.lastTenantId,
      // written out with its own aliases: drizzle names a single table's columns unqualified here
      // `{id}:{second-factor policy}:{sso policy}` of each: one pass over the tenants, as before the policies
      // existed (the SSO policy is one primary-key probe of a tenant with single sign-on turned on)
      tenants: sql<
        string[]
      >`array(select t.id || ':' || t.mfa_policy || ':' || coalesce((select s.policy from tenant_sso s where s.tenant_ref = t.id and s.enabled), '') ${enterable})`,
      // whether the account has an active second factor (same statement: no round trip more)
      hasFactor: sql<boolean>`exists (select 1 from account_factors f where f.account_ref = accounts.id and f.confirmed_at is not null)`,
    })
    .from(accounts)
    .where(
      or(
        sql`lower(${accounts.accountId}) = ${p('lowered')}`,
        eq(accounts.phone, p('phone')),
        sql`lower(${accounts.email}) = ${p('lowered')}`,
      ),
    )
    // an exact user number wins over a phone or e-mail that happens to look like one
    .orderBy(sql`case when lower(${accounts.accountId}) = ${p('lowered')} then 0 else 1 end`)
    .limit(sql.raw('1') as unknown as number);

type AccountRow = {
  id: number;
  accountId: string;
  passwordHash: string | null;
  superAdmin: boolean;
  passwordChangedAt: Date | null;
  lastTenantId: number | null;
  tenants: string[];
  hasFactor: boolean;
};

/**
 * The account an identifier names (user number, phone or e-mail, case-insensitive where it matters),
 * with the tenants it may enter right now, best first: the last one used, then by id; a super admin
 * may enter every enabled tenant, each with its second-factor policy, and whether the account has a second
 * factor. One statement: the tenants and the factor cost nothing next to a round trip.
 */
export async function findAccount(app: FastifyInstance, identifier: string) {
  const [row] = await signInStatements<AccountRow>(app.database.db, 'account', accountStatement, {
    lowered: identifier.trim().toLowerCase(),
    phone: identifier.trim(),
    now: app.clock.now(),
  });
  if (!row) return null;
  const { tenants, ...account } = row;
  const pairs = tenants.map((t) => t.split(':'));
  return {
    ...account,
    tenantIds: pairs.map(([id]) => Number(id)),
    mfaPolicies: pairs.map(([, policy]) => policy ?? 'optional'),
    ssoOnly: pairs.map(([, , sso]) => sso === 'sso_only'),
  };
}

const formatUntil = (until: Date) => `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const lockedError = (until: Date) =>
  new AppError('accountLocked', { params: { until: formatUntil(until) }, data: { lockedUntil: until.toISOString() } });

/**
 * The first tenant the account may enter by password (of those `findAccount` found) with an enabled
 * membership, and whether its policy asks this person for a second factor; null when there is none, or
 * 'ssoOnly' when the only ones are tenants that sign in by their provider alone. A super admin keeps a
 * password way into those (`pastSsoOnly`: the sign-in's log entry says so).
 */
async function pickTenant(
  app: FastifyInstance,
  account: { id: number; superAdmin: boolean; tenantIds: number[]; mfaPolicies: string[]; ssoOnly: boolean[] },
) {
  let skipped = false;
  for (const [index, tenantId] of account.tenantIds.entries()) {
    const ssoOnly = account.ssoOnly[index] ?? false;
    if (ssoOnly && !account.superAdmin) {
      skipped = true;
      continue;
    }
    const access = await app.sessions.access(account.id, tenantId, { fresh: true });
    if (access.ok) return { tenantId, mfaRequired: policyRequires(account.mfaPolicies[index], access.access), pastSsoOnly: ssoOnly };
  }
  return skipped ? ('ssoOnly' as const) : null;
}

/** The login log's word for a super admin's password sign-in into a tenant that signs in by SSO only. */
export const PAST_SSO_ONLY = 'super admin password past sso_only';

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The account a `atrium_device` cookie was issued to, when it is valid and unexpired, else null. Asked the
 * same way whatever the name typed, so a known device reveals nothing about unknown names.
 */
async function knownDeviceOf(app: FastifyInstance, request: FastifyRequest): Promise<{ accountRef: number; hash: string } | null> {
  const token = request.cookies?.[DEVICE_COOKIE];
  if (!token || token.length > 100) return null;
  const hash = hashOf(token);
  const [row] = await app.database.db
    .select({ accountRef: knownDevices.accountRef })
    .from(knownDevices)
    .where(and(eq(knownDevices.tokenHash, hash), gt(knownDevices.expiresAt, app.clock.now())));
  return row ? { accountRef: row.accountRef, hash } : null;
}

type Admission = {
  account: { id: number; lastTenantId: number | null };
  tenantId: number;
  remember?: boolean;
  /** the known device's hash, or null: a new device is made */
  knownDevice: string | null;
  log: LoginLogEntry;
  deviceId?: string | null;
  /** the sign-in proved a second factor */
  mfa?: boolean;
};

/** Placeholders named `${prefix}.${column}` for each column of a row, for a built insert. */
const placeholdersOf = <T extends object>(prefix: string, row: T) =>
  Object.fromEntries(Object.keys(row).map((name) => [name, p(`${prefix}.${name}`)])) as unknown as T;

/** A row's values under its placeholders' names. */
function fill(values: Record<string, unknown>, prefix: string, row: object) {
  for (const [name, value] of Object.entries(row)) values[`${prefix}.${name}`] = value;
}

type SessionRow = ReturnType<FastifyInstance['sessions']['newSession']>['row'];
type LogRow = ReturnType<typeof loginLogRow>;

/**
 * The statement `admit` runs, in four shapes: a known device or a new one, the last tenant changed or
 * not. The session and the log entry are written with the columns their rows have (part of the key).
 */
function admitStatement(db: Db | Tx, shape: { knownDevice: boolean; lastTenant: boolean }, session: SessionRow, log: LogRow) {
  const d = knownDevices;
  const steps = [sql`session as (${db.insert(sessions).values(placeholdersOf('session', session)).getSQL()})`];
  if (shape.knownDevice) {
    steps.push(
      sql`device as (${db
        .update(d)
        .set({ lastUsedAt: p('now') as never, expiresAt: p('expiresAt') as never })
        .where(eq(d.tokenHash, p('deviceHash')))
        .getSQL()})`,
    );
  } else {
    // the delete sees the devices as they were before the insert, so it keeps one fewer than the limit
    steps.push(
      sql`device as (${db
        .insert(d)
        .values({
          tokenHash: p('deviceHash'),
          accountRef: p('accountRef'),
          createTime: p('now'),
          lastUsedAt: p('now'),
          expiresAt: p('expiresAt'),
        } as never)
        .getSQL()})`,
      sql`pruned as (
        delete from ${d}
         where ${d.accountRef} = ${p('accountRef')}
           and (${d.expiresAt} < ${p('now')}
                or ${d.id} not in (select id from known_devices where account_ref = ${p('accountRef')}
                                    order by last_used_at desc, id desc limit ${p('keep')})))`,
    );
  }
  if (shape.lastTenant) {
    steps.push(
      sql`last_tenant as (${db
        .update(accounts)
        .set({ lastTenantId: p('tenantId') as never })
        .where(eq(accounts.id, p('accountRef')))
        .getSQL()})`,
    );
  }
  steps.push(sql`logged as (${db.insert(loginLogs).values(placeholdersOf('log', log)).getSQL()})`);
  return sql`with ${sql.join(steps, sql`, `)} select 1`;
}

/**
 * After a good password, ONE statement (on a connection set to the tenant: the log entry is the
 * tenant's row) writes what a sign-in leaves: the session; the device, known for DEVICE_TTL_MS more,
 * or a new one while the account's expired devices and all but its most recently used others go (API
 * clients without a cookie jar make a new one at every sign-in); the account's last tenant when it
 * changed; and the log entry. Answers the session's token and a new device's token for its cookie.
 */
async function admit(app: FastifyInstance, request: FastifyRequest, a: Admission): Promise<{ token: string; deviceToken: string | null }> {
  const now = app.clock.now();
  const expiresAt = new Date(now.getTime() + DEVICE_TTL_MS);
  const accountRef = a.account.id;
  const { token, row } = app.sessions.newSession({
    accountRef,
    tenantId: a.tenantId,
    remember: a.remember,
    ...originOf(request, a.deviceId),
    ...(a.mfa ? { mfaAt: now } : {}),
  });
  const deviceToken = a.knownDevice ? null : randomBytes(32).toString('base64url');
  const shape = { knownDevice: !!a.knownDevice, lastTenant: a.account.lastTenantId !== a.tenantId };
  const values: Record<string, unknown> = { now, expiresAt, accountRef, tenantId: a.tenantId, keep: MAX_KNOWN_DEVICES - 1 };
  const logRow = loginLogRow(app, request, a.log, a.deviceId);
  fill(values, 'session', row);
  fill(values, 'log', logRow);
  values.deviceHash = a.knownDevice ?? hashOf(deviceToken as string);
  const key = `admit:${shape.knownDevice}:${shape.lastTenant}:${Object.keys(row)}:${Object.keys(logRow)}`;
  await withTenantStatement(app.database.db, a.tenantId, (tx) =>
    admitStatements(tx, key, (db) => admitStatement(db, shape, row, logRow), values),
  );
  dropTotals(app, a.tenantId, LOGIN_LOG_TOTALS);
  return { token, deviceToken };
}

/**
 * What sign-in locks are counted on. The subject is the account (its id and password generation, so
 * that a new password — by reset code or by an administrator — starts every count afresh) or, for a name
 * that matches no account, the name as typed: both are counted and locked exactly alike.
 */
type LockCounter = { fail: string; lock: string; level: string; threshold: number };

function lockKeys(subject: string, source: string): { source: LockCounter; account: LockCounter } {
  const k = (kind: string, scope: string) => `login-${kind}:${scope}`.slice(0, 200);
  const pair = `${subject}|${source}`;
  return {
    source: { fail: k('fail', pair), lock: k('lock', pair), level: k('level', pair), threshold: LOCKOUT.sourceThreshold },
    account: { fail: k('fail', subject), lock: k('lock', subject), level: k('level', subject), threshold: LOCKOUT.accountThreshold },
  };
}

/**
 * In one round trip: the latest lock of these counters (ms since the epoch, 0 when none is set), and
 * whether the source has failures or a lock level counted (a good sign-in then clears them).
 */
async function lockState(
  app: FastifyInstance,
  counters: LockCounter[],
  source: LockCounter,
): Promise<{ until: number; sourceCounted: boolean }> {
  const values = await app.store.getMany([...counters.map((c) => c.lock), source.fail, source.level]);
  const locks = values.slice(0, counters.length);
  const until = Math.max(0, ...locks.map((v) => (v === null ? 0 : Number(v))).filter(Number.isFinite));
  return { until, sourceCounted: values.slice(counters.length).some((v) => v !== null) };
}

/** Counts one failure; at the threshold, locks for the next delay of the doubling series and starts counting again. */
async function countFailure(app: FastifyInstance, counter: LockCounter): Promise<number> {
  const { count } = await app.store.incr(counter.fail, LOCKOUT.windowMs);
  if (count < counter.threshold) return 0;
  const { count: level } = await app.store.incr(counter.level, LOCKOUT.levelMemoryMs);
  const delay = Math.min(LOCKOUT.firstLockMs * 2 ** Math.min(level - 1, 20), LOCKOUT.maxLockMs);
  const until = app.clock.now().getTime() + delay;
  await app.store.set(counter.lock, String(until), delay);
  await app.store.del(counter.fail);
  return until;
}
/** Sets the known-device cookie a sign-in from a new device made. */
function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, deviceToken: string | null) {
  if (!deviceToken) return;
  reply.setCookie(DEVICE_COOKIE, deviceToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: Math.floor(DEVICE_TTL_MS / 1000),
  });
}

/**
 * Sign-in by user number, phone or e-mail. The same answer (1001) for a wrong password and an unknown
 * account, counted and locked alike (1003 says until when; see LOCKOUT). A fresh token every time, and
 * the device becomes a known one of the account. An account with a second factor, or one its tenant's
 * policy asks for one, gets an `mfaToken` instead of a session (second step: `loginWithSecondFactor`).
 */
export async function login(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, input: LoginInput): Promise<SignInResult> {
  const typed = input.account;
  const log = (entry: Omit<LoginLogEntry, 'account'>) => writeLoginLog(app, request, { account: typed, ...entry }, input.deviceId);
  if (app.captcha.enabled && !(await app.captcha.check(input.captchaId, input.code))) {
    await log({ result: 'failure', reason: 'captcha' });
    throw new AppError('captchaInvalid');
  }
  const account = await findAccount(app, typed);
  const device = await knownDeviceOf(app, request);
  const knownDevice = !!account && device?.accountRef === account.id;
  const subject = account ? `a${account.id}.${account.passwordChangedAt?.getTime() ?? 0}` : `n:${typed.trim().toLowerCase().slice(0, 100)}`;
  const source = knownDevice && device ? `d:${device.hash.slice(0, 32)}` : `ip:${request.ip}`;
  const keys = lockKeys(subject, source);
  // a known device meets only its own lock; any other source its address's and the account's
  const applying = knownDevice ? [keys.source] : [keys.source, keys.account];
  const now = app.clock.now().getTime();
  const { until, sourceCounted } = await lockState(app, applying, keys.source);
  if (until > now) {
    await log({ result: 'locked', reason: 'locked', accountRef: account?.id });
    throw lockedError(new Date(until));
  }
  const passwordOk = account?.passwordHash ? await verifyPassword(account.passwordHash, input.password) : false;
  if (!account?.passwordHash) await burnPasswordCheck(input.password);
  if (!account || !passwordOk) {
    const locks = await Promise.all([countFailure(app, keys.source), countFailure(app, keys.account)]);
    const lockedNow = Math.max(locks[0], knownDevice ? 0 : locks[1]);
    await log({ result: 'failure', reason: account ? 'wrong password' : 'unknown account', accountRef: account?.id });
    if (lockedNow) throw lockedError(new Date(lockedNow));
    throw new AppError('loginFailed');
  }
  const picked = await pickTenant(app, account);
  if (picked === null) {
    await log({ result: 'failure', reason: 'no tenant', accountRef: account.id });
    throw new AppError('noTenant');
  }
  if (picked === 'ssoOnly') {
    await log({ result: 'failure', reason: 'sso only', accountRef: account.id });
    throw new AppError('ssoOnly');
  }
  const { tenantId } = picked;
  if (account.hasFactor || picked.mfaRequired) {
    // the password was right: the second step goes on with the same lock counters
    const pending: PendingSignIn = {
      accountRef: account.id,
      tenantId,
      lastTenantId: account.lastTenantId,
      typed: typed.slice(0, 100),
      subject,
      source,
      knownDevice: knownDevice && device ? device.hash : null,
      remember: input.remember ?? false,
      deviceId: input.deviceId ?? null,
      enrol: !account.hasFactor,
      expiresAt: now + MFA_TOKEN_TTL_MS,
    };
    const mfaToken = await savePending(app, pending);
    await log({
      result: 'mfa',
      reason: `${pending.enrol ? 'second factor to enrol' : 'second factor required'}${picked.pastSsoOnly ? `; ${PAST_SSO_ONLY}` : ''}`,
      accountRef: account.id,
      tenantId,
    });
    return pending.enrol
      ? { mfa: 'enrol', mfaToken, methods: [] }
      : { mfa: 'required', mfaToken, methods: await methodsOf(app, account.id) };
  }
  // the owner got in from here: this source starts counting afresh, and the device is a known one
  if (sourceCounted) await app.store.del(keys.source.fail, keys.source.level);
  const { token, deviceToken } = await admit(app, request, {
    account,
    tenantId,
    remember: input.remember,
    knownDevice: knownDevice && device ? device.hash : null,
    log: { account: typed, result: 'success', accountRef: account.id, tenantId, ...(picked.pastSsoOnly ? { reason: PAST_SSO_ONLY } : {}) },
    deviceId: input.deviceId,
  });
  setDeviceCookie(request, reply, deviceToken);
  return { token };
}

/** How long the second step of a sign-in may take. */
export const MFA_TOKEN_TTL_MS = 5 * MINUTE;

/**
 * A sign-in whose password was right and whose second step is pending, kept in the shared store under
 * the hash of its `mfaToken`: bound to the account, the tenant and this attempt's lock counters.
 */
type PendingSignIn = {
  accountRef: number;
  tenantId: number;
  lastTenantId: number | null;
  typed: string;
  subject: string;
  source: string;
  knownDevice: string | null;
  remember: boolean;
  deviceId: string | null;
  /** the tenant asks for a factor the account does not have: the token can only enrol one */
  enrol: boolean;
  expiresAt: number;
};

const pendingKey = (mfaToken: string) => `mfa-pending:${hashOf(mfaToken)}`;

async function savePending(app: FastifyInstance, pending: PendingSignIn): Promise<string> {
  const mfaToken = randomBytes(32).toString('base64url');
  await app.store.set(pendingKey(mfaToken), JSON.stringify(pending), MFA_TOKEN_TTL_MS);
  return mfaToken;
}

/** The pending sign-in an mfaToken names (unexpired by the app's clock, of the kind asked), or 1021. */
async function pendingOf(app: FastifyInstance, mfaToken: string, enrol: boolean): Promise<PendingSignIn> {
  const text = mfaToken.length > 100 ? null : await app.store.get(pendingKey(mfaToken));
  const pending = text ? (JSON.parse(text) as PendingSignIn) : null;
  if (!pending || pending.expiresAt <= app.clock.now().getTime()) {
    if (pending) await app.store.del(pendingKey(mfaToken));
    throw new AppError('mfaTokenInvalid');
  }
  if (pending.enrol !== enrol) throw new AppError('mfaTokenInvalid');
  return pending;
}

/**
 * Ends a pending sign-in with a session: the token is taken from the store (single use: of two requests
 * with it, one wins), the account must still be allowed into the tenant (disabled meanwhile: 1004), and
 * the session is written as a password sign-in writes it, marked as having proved its second factor.
 */
async function finishPending(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  mfaToken: string,
  pending: PendingSignIn,
  reason: string,
): Promise<string> {
  if ((await app.store.take(pendingKey(mfaToken))) === null) throw new AppError('mfaTokenInvalid');
  const log = (entry: Omit<LoginLogEntry, 'account'>) =>
    writeLoginLog(app, request, { account: pending.typed, accountRef: pending.accountRef, ...entry }, pending.deviceId);
  const access = await app.sessions.access(pending.accountRef, pending.tenantId, { fresh: true });
  if (!access.ok) {
    await log({ result: 'failure', reason: 'no tenant' });
    throw new AppError('noTenant');
  }
  const keys = lockKeys(pending.subject, pending.source);
  await app.store.del(keys.source.fail, keys.source.level);
  const { token, deviceToken } = await admit(app, request, {
    account: { id: pending.accountRef, lastTenantId: pending.lastTenantId },
    tenantId: pending.tenantId,
    remember: pending.remember,
    knownDevice: pending.knownDevice,
    log: { account: pending.typed, result: 'success', reason, accountRef: pending.accountRef, tenantId: pending.tenantId },
    deviceId: pending.deviceId,
    mfa: true,
  });
  setDeviceCookie(request, reply, deviceToken);
  return token;
}

/**
 * The second step of a sign-in: the mfaToken and a code from the authenticator app or a recovery code.
 * A wrong code is a failed sign-in: counted on the same locks as a wrong password (1003 once locked,
 * which also ends the pending sign-in); otherwise 400 naming `code`, and the token stays usable.
 */
export function loginWithSecondFactor(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, input: MfaLoginInput) {
  return secondStep(app, request, reply, input.mfaToken, { method: input.method, field: 'code', message: 'mfa.codeWrong' }, (pending) =>
    useSecondFactor(app, pending.accountRef, input.method, input.code),
  );
}

/**
 * A sign-in's second step by passkey, first call: the WebAuthn options (navigator.credentials.get) for the
 * pending account's passkeys, their challenge kept with the mfaToken. 400 naming `mfaToken` for an account
 * without a passkey; 1021 as the code step.
 */
export async function passkeySignInOptions(app: FastifyInstance, request: FastifyRequest, mfaToken: string) {
  const pending = await pendingOf(app, mfaToken, false);
  const options = await assertionOptions(app, request, pending.accountRef, signInChallengeKey(mfaToken));
  if (!options) throw invalidField('mfaToken', 'noPasskey', 'mfa.passkeyRefused');
  return options;
}

/**
 * A sign-in's second step by passkey, second call: the assertion to the challenge of the first. A refused
 * assertion is a failed sign-in, on the same locks as a wrong code (400 naming `response`); its challenge
 * is used either way, so each try asks for new options.
 */
export function loginWithPasskey(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { mfaToken: string; response: WebauthnResponse },
) {
  return secondStep(
    app,
    request,
    reply,
    input.mfaToken,
    { method: 'webauthn', field: 'response', message: 'mfa.passkeyRefused' },
    (pending) => usePasskey(app, pending.accountRef, signInChallengeKey(input.mfaToken), input.response),
  );
}

/** What a second step proves with, and what its refusal names. */
type StepKind = { method: string; field: string; message: string };

/** The second step of a sign-in, whatever proves it: the pending sign-in's locks, the check, the session. */
async function secondStep(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  mfaToken: string,
  kind: StepKind,
  check: (pending: PendingSignIn) => Promise<boolean>,
): Promise<{ token: string }> {
  const pending = await pendingOf(app, mfaToken, false);
  const log = (entry: Omit<LoginLogEntry, 'account'>) =>
    writeLoginLog(
      app,
      request,
      { account: pending.typed, accountRef: pending.accountRef, tenantId: pending.tenantId, ...entry },
      pending.deviceId,
    );
  const keys = lockKeys(pending.subject, pending.source);
  const applying = pending.knownDevice ? [keys.source] : [keys.source, keys.account];
  const { until } = await lockState(app, applying, keys.source);
  if (until > app.clock.now().getTime()) {
    await app.store.del(pendingKey(mfaToken));
    await log({ result: 'locked', reason: 'locked' });
    throw lockedError(new Date(until));
  }
  if (!(await check(pending))) {
    const locks = await Promise.all([countFailure(app, keys.source), countFailure(app, keys.account)]);
    const lockedNow = Math.max(locks[0], pending.knownDevice ? 0 : locks[1]);
    await log({ result: 'failure', reason: kind.method === 'webauthn' ? 'passkey refused' : `wrong ${kind.method} code` });
    if (lockedNow) {
      await app.store.del(pendingKey(mfaToken));
      throw lockedError(new Date(lockedNow));
    }
    throw invalidField(kind.field, 'wrong', kind.message);
  }
  return { token: await finishPending(app, request, reply, mfaToken, pending, `second factor: ${kind.method}`) };
}

/** Forced enrolment, first call: the pending sign-in of an account its tenant asks a factor of begins one. */
export async function beginForcedTotp(app: FastifyInstance, mfaToken: string) {
  const pending = await pendingOf(app, mfaToken, true);
  return beginTotp(app, { accountRef: pending.accountRef, accountId: pending.typed });
}

/** Forced enrolment, second call: the code confirms the factor, and the sign-in goes on with a session. */
export async function confirmForcedTotp(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { mfaToken: string; code: string },
): Promise<{ token: string; recoveryCodes: string[] }> {
  const pending = await pendingOf(app, input.mfaToken, true);
  const { recoveryCodes } = await confirmTotp(app, pending.accountRef, input.code);
  const token = await finishPending(app, request, reply, input.mfaToken, pending, 'second factor enrolled');
  return { token, recoveryCodes };
}
