import { createHash, randomBytes } from 'node:crypto';
import type { CodeMethod, MfaFactors, MfaMethod, MfaPolicy } from '@atrium/contracts';
import { and, asc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { invalidField } from '../../crud/conflict';
import type { Tx } from '../../db/client';
import { accountFactors, accountPasskeys, accounts, recoveryCodes, sessions, tenants } from '../../db/schema';
import { AppError } from '../../errors';
import type { AuthContext } from '../../plugins/external/access';
import { secretContext } from '../../secrets/at-rest';
import { sendNotice } from './mailer';

/**
 * Second factors (docs/adr/048-second-factor.md): an authenticator app (TOTP, RFC 6238: six digits, 30 s
 * steps, SHA-1, the form every authenticator app reads) and ten one-time recovery codes. The TOTP secret is
 * sealed like every secret a user gives (secrets/box.ts); recovery codes are kept as hashes. Time comes
 * from the app's clock, so tests move it.
 */
export const TOTP_PERIOD_S = 30;
/** Steps accepted either side of now: a code from the previous or the next 30 s still counts (clock drift). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long a second-factor check stays fresh for a sensitive change (step-up). */
export const STEP_UP_MS = 5 * 60_000;
const ISSUER = 'Atrium';
const TOTP_KIND = 'totp';
/** The `account_factors` row an account's passkeys hang off (docs/adr/050-passkeys.md). */
export const WEBAUTHN_KIND = 'webauthn';

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

const totpOf = (secret: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });

/** The time step a code belongs to (within the window around `now`), or null when it matches none. */
export function stepOf(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
}

/** A recovery code: ten letters and digits in two groups, easy to read aloud and to type (`k3f9q-x72mb`). */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
const normaliseRecovery = (code: string) => code.replace(/[\s-]+/g, '').toLowerCase();
const recoveryHash = (code: string) => hashOf(`recovery:${normaliseRecovery(code)}`);

type FactorRow = { id: number; secret: string; lastStep: number | null; confirmedAt: Date | null };

async function totpRow(app: FastifyInstance, accountRef: number): Promise<FactorRow | null> {
  const [row] = await app.database.db
    .select({
      id: accountFactors.id,
      secret: accountFactors.secret,
      lastStep: accountFactors.lastStep,
      confirmedAt: accountFactors.confirmedAt,
    })
    .from(accountFactors)
    .where(and(eq(accountFactors.accountRef, accountRef), eq(accountFactors.kind, TOTP_KIND)));
  return row ?? null;
}

/** The kinds of the account's active second factors (`totp`, `webauthn`: it has passkeys). */
async function activeKinds(db: FastifyInstance['database']['db'] | Tx, accountRef: number): Promise<string[]> {
  const rows = await db
    .select({ kind: accountFactors.kind })
    .from(accountFactors)
    .where(and(eq(accountFactors.accountRef, accountRef), isNotNull(accountFactors.confirmedAt)));
  return rows.map((r) => r.kind);
}

/**
 * The methods a sign-in of an account with a factor may continue with: those of its factors, in the
 * order of `mfaMethods`, and its recovery codes.
 */
export async function methodsOf(app: FastifyInstance, accountRef: number): Promise<MfaMethod[]> {
  const kinds = await activeKinds(app.database.db, accountRef);
  const methods: MfaMethod[] = [];
  if (kinds.includes(TOTP_KIND)) methods.push('totp');
  if (kinds.includes(WEBAUTHN_KIND)) methods.push('webauthn');
  if (kinds.length > 0) methods.push('recovery');
  return methods;
}

/**
 * Ten new recovery codes for the account, replacing any it had; only their hashes are kept. Answered once,
 * when the account's first second factor becomes active (an app confirmed, a first passkey added).
 */
export async function issueRecoveryCodes(tx: Tx, accountRef: number, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountRef, accountRef));
  await tx.insert(recoveryCodes).values(codes.map((c) => ({ accountRef, codeHash: recoveryHash(c), createTime: now })));
  return codes;
}

/** After a factor went: the recovery codes go too when the account has no active factor left. */
export async function dropRecoveryCodesWithoutFactor(tx: Tx, accountRef: number): Promise<void> {
  if ((await activeKinds(tx, accountRef)).length > 0) return;
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountRef, accountRef));
}

/**
 * Begins enrolling an authenticator app: a new secret, sealed, not active until confirmed. A begun
 * enrolment not yet confirmed is replaced; an active one must be removed first (400 naming `totp`).
 */
export async function beginTotp(app: FastifyInstance, account: { accountRef: number; accountId: string }) {
  const existing = await totpRow(app, account.accountRef);
  if (existing?.confirmedAt) throw invalidField('totp', 'enrolled', 'mfa.enrolled');
  const secret = new Secret({ size: 20 });
  const sealed = app.secrets.seal(secret.base32, secretContext.totp(account.accountRef));
  const now = app.clock.now();
  await app.database.db
    .insert(accountFactors)
    .values({ accountRef: account.accountRef, kind: TOTP_KIND, secret: sealed, createTime: now })
    .onConflictDoUpdate({
      target: [accountFactors.accountRef, accountFactors.kind],
      set: { secret: sealed, lastStep: null, lastUsedAt: null, createTime: now },
      // never over an active factor (a concurrent confirm)
      setWhere: isNull(accountFactors.confirmedAt),
    });
  return { secret: secret.base32, otpauthUrl: totpOf(secret.base32, account.accountId).toString() };
}

/**
 * Confirms the begun enrolment with a code from the app: the factor is active from now on, and the
 * account gets ten new recovery codes (answered once; only their hashes are kept). 400 naming `code`.
 * The session that confirmed it (`sessionId`; none yet when a sign-in enrols) has proved it now.
 */
export async function confirmTotp(
  app: FastifyInstance,
  accountRef: number,
  code: string,
  sessionId?: number,
): Promise<{ recoveryCodes: string[] }> {
  const row = await totpRow(app, accountRef);
  if (!row || row.confirmedAt) throw invalidField('code', 'notStarted', row ? 'mfa.enrolled' : 'mfa.notStarted');
  const now = app.clock.now();
  const step = stepOf(app.secrets.open(row.secret, secretContext.totp(accountRef)), code, now);
  if (step === null) throw invalidField('code', 'wrong', 'mfa.codeWrong');
  const codes = await app.database.db.transaction(async (tx) => {
    const done = await tx
      .update(accountFactors)
      .set({ confirmedAt: now, lastStep: step, lastUsedAt: now })
      .where(and(eq(accountFactors.id, row.id), isNull(accountFactors.confirmedAt)))
      .returning({ id: accountFactors.id });
    if (done.length === 0) return null;
    return issueRecoveryCodes(tx, accountRef, now);
  });
  if (!codes) throw invalidField('code', 'notStarted', 'mfa.enrolled');
  if (sessionId !== undefined) await markSecondFactor(app, sessionId);
  return { recoveryCodes: codes };
}

/**
 * Checks a second factor and uses it up: a TOTP code is accepted once (its time step must be later than
 * the last one accepted), a recovery code once ever. Both writes are conditional, so two requests with
 * the same code cannot both pass. False for a wrong code or an account without an active factor.
 */
export async function useSecondFactor(app: FastifyInstance, accountRef: number, method: CodeMethod, code: string): Promise<boolean> {
  const now = app.clock.now();
  if (method === 'recovery') {
    // the codes stand for every factor of the account: good while it has one
    if ((await activeKinds(app.database.db, accountRef)).length === 0) return false;
    const used = await app.database.db
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(recoveryCodes.accountRef, accountRef), eq(recoveryCodes.codeHash, recoveryHash(code)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used.length > 0;
  }
  const row = await totpRow(app, accountRef);
  if (!row?.confirmedAt || !/^\d{6}$/.test(code)) return false;
  const step = stepOf(app.secrets.open(row.secret, secretContext.totp(accountRef)), code, now);
  if (step === null) return false;
  const taken = await app.database.db
    .update(accountFactors)
    .set({ lastStep: step, lastUsedAt: now })
    .where(
      and(
        eq(accountFactors.id, row.id),
        isNotNull(accountFactors.confirmedAt),
        or(isNull(accountFactors.lastStep), lt(accountFactors.lastStep, step)),
      ),
    )
    .returning({ id: accountFactors.id });
  return taken.length > 0;
}

/**
 * Removes the authenticator app (with a code from it), and the recovery codes when no passkey is left;
 * 400 naming `code`.
 */
export async function removeTotp(app: FastifyInstance, auth: AuthContext, code: string): Promise<void> {
  const row = await totpRow(app, auth.accountRef);
  if (!row?.confirmedAt) throw invalidField('code', 'notEnrolled', 'mfa.notEnrolled');
  if (!(await useSecondFactor(app, auth.accountRef, 'totp', code))) throw invalidField('code', 'wrong', 'mfa.codeWrong');
  await app.database.db.transaction(async (tx) => {
    await tx.delete(accountFactors).where(and(eq(accountFactors.accountRef, auth.accountRef), eq(accountFactors.kind, TOTP_KIND)));
    await dropRecoveryCodesWithoutFactor(tx, auth.accountRef);
  });
}

/** Whether the tenant's policy asks this person for a second factor. */
export function policyRequires(policy: string | null | undefined, access: Pick<AuthContext, 'superAdmin' | 'heldRoles'>): boolean {
  if (policy === 'everyone') return true;
  if (policy === 'admins') return access.superAdmin || access.heldRoles.some((r) => r.code === 'admin');
  return false;
}

export async function tenantPolicy(app: FastifyInstance, tenantId: number): Promise<MfaPolicy> {
  const [row] = await app.database.db.select({ policy: tenants.mfaPolicy }).from(tenants).where(eq(tenants.id, tenantId));
  return (row?.policy ?? 'optional') as MfaPolicy;
}

export async function setTenantPolicy(app: FastifyInstance, tenantId: number, policy: MfaPolicy): Promise<void> {
  await app.database.db.update(tenants).set({ mfaPolicy: policy, updateTime: app.clock.now() }).where(eq(tenants.id, tenantId));
}

/**
 * The caller's factors, never a secret: the active authenticator app, the passkeys (id, name, added, last
 * used), how many recovery codes are left.
 */
export async function factorsOf(app: FastifyInstance, auth: AuthContext): Promise<MfaFactors> {
  const db = app.database.db;
  const [row] = await db
    .select({ createTime: accountFactors.createTime, lastUsedAt: accountFactors.lastUsedAt })
    .from(accountFactors)
    .where(and(eq(accountFactors.accountRef, auth.accountRef), eq(accountFactors.kind, TOTP_KIND), isNotNull(accountFactors.confirmedAt)));
  const passkeys = await db
    .select({
      id: accountPasskeys.id,
      name: accountPasskeys.name,
      createTime: accountPasskeys.createTime,
      lastUsedAt: accountPasskeys.lastUsedAt,
    })
    .from(accountPasskeys)
    .where(eq(accountPasskeys.accountRef, auth.accountRef))
    .orderBy(asc(accountPasskeys.id));
  const [left] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.accountRef, auth.accountRef), isNull(recoveryCodes.usedAt)));
  const required = policyRequires(await tenantPolicy(app, auth.tenantId), auth);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    factors: [
      ...(row ? [{ kind: 'totp' as const, createTime: iso(row.createTime), lastUsedAt: iso(row.lastUsedAt) }] : []),
      ...passkeys.map((p) => ({
        kind: 'webauthn' as const,
        id: p.id,
        name: p.name,
        createTime: iso(p.createTime),
        lastUsedAt: iso(p.lastUsedAt),
      })),
    ],
    recoveryCodesLeft: row || passkeys.length > 0 ? Number(left?.count ?? 0) : 0,
    required,
  };
}

/** Marks the session as having proved its second factor now (sign-in, enrolment, step-up). */
export async function markSecondFactor(app: FastifyInstance, sessionId: number): Promise<void> {
  await app.database.db.update(sessions).set({ mfaAt: app.clock.now() }).where(eq(sessions.id, sessionId));
}

/**
 * Step-up: a sensitive change (password, phone or e-mail, factors) by an account with a second factor
 * needs a check of that factor within STEP_UP_MS in this session (POST /api/user/mfa/verify), else 1022.
 * An account without a factor changes as before.
 */
export async function assertRecentSecondFactor(
  app: FastifyInstance,
  auth: Pick<AuthContext, 'accountRef' | 'sessionId'>,
  // inside a request's tenant transaction, that transaction (the embedded database has one connection)
  db: FastifyInstance['database']['db'] | Tx = app.database.db,
): Promise<void> {
  const [row] = await db
    .select({
      mfaAt: sessions.mfaAt,
      has: sql<boolean>`exists (select 1 from ${accountFactors} f where f.account_ref = ${accounts.id} and f.confirmed_at is not null)`,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(sessions.id, auth.sessionId));
  if (!row?.has) return;
  if (row.mfaAt && app.clock.now().getTime() - row.mfaAt.getTime() <= STEP_UP_MS) return;
  throw new AppError('mfaStepUp');
}

/** Tells a user by mail that an administrator removed their second factor. */
export function tellFactorsRemoved(app: FastifyInstance, request: FastifyRequest, to: string, accountId: string, by: string) {
  const mail =
    request.lang === 'en-US'
      ? {
          subject: 'Atrium: your two-step verification was removed',
          text: `An administrator (${by}) removed the second factors (authenticator app, passkeys) and recovery codes of your Atrium account ${accountId} just now. You sign in with your password alone until you set up two-step verification again.\n\nIf you did not ask for this, tell your organisation at once.\n`,
        }
      : {
          subject: 'Atrium 两步验证已被解除',
          text: `管理员（${by}）刚刚解除了您的 Atrium 账号 ${accountId} 的两步验证方式（验证器、通行密钥）和恢复码。在重新启用两步验证之前，您只需密码即可登录。\n\n如果这不是您要求的，请立即告知您的组织。\n`,
        };
  sendNotice(app, request, { to, ...mail }, 'second factor removal');
}
