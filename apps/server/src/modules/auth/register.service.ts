import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { registerInputSchema, resetCodeInputSchema, resetPasswordInputSchema } from '@atrium/contracts';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { accounts, memberships, passwordResets, tenants, tenantUsers, userRoles } from '../../db/schema';
import { AppError } from '../../errors';
import { originOf, writeLoginLog } from './login.service';
import { assertPasswordPolicy, hashPassword } from './password';
import { ensureStandardRoles } from './standard-roles';

/** A mailed reset code lives 15 minutes and allows 5 wrong tries. */
export const RESET_TTL_MS = 15 * 60 * 1000;
export const RESET_MAX_ATTEMPTS = 5;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** A tenant code from the account name: lower-case letters, digits and dashes, made unique with a suffix. */
const tenantCodeFor = (accountId: string, attempt: number) => {
  const base =
    accountId
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24) || 'tenant';
  return attempt === 0 ? base : `${base}-${randomBytes(3).toString('hex')}`;
};

/**
 * Self-service registration: a new account, a new tenant in which it is administrator (role `admin`
 * with every menu), signed in at once. Captcha protected; REGISTRATION=off refuses with 1005.
 */
export async function register(
  app: FastifyInstance,
  request: FastifyRequest,
  input: z.output<typeof registerInputSchema>,
): Promise<{ token: string; tenantId: number; tenantCode: string }> {
  if (!app.config.REGISTRATION) throw new AppError('registrationDisabled');
  await app.captcha.require(input);
  assertPasswordPolicy(input.password);
  const passwordHash = await hashPassword(input.password);
  const now = app.clock.now();
  let created: { accountRef: number; tenantId: number; tenantCode: string } | null = null;
  for (let attempt = 0; attempt < 5 && !created; attempt++) {
    try {
      created = await app.database.db.transaction(async (tx) => {
        const [taken] = await tx
          .select({ id: accounts.id })
          .from(accounts)
          .where(
            sql`lower(${accounts.accountId}) = ${input.accountId.toLowerCase()} or lower(${accounts.email}) = ${input.email.toLowerCase()}`,
          );
        if (taken) throw new RegistrationRefused();
        const [account] = await tx
          .insert(accounts)
          .values({
            accountId: input.accountId,
            email: input.email,
            nickname: input.accountId.slice(0, 30),
            passwordHash,
            passwordChangedAt: now,
            clientKey: randomBytes(16).toString('hex'),
          })
          .returning({ id: accounts.id });
        const accountRef = (account as { id: number }).id;
        const [tenant] = await tx
          .insert(tenants)
          .values({ code: tenantCodeFor(input.accountId, attempt), name: input.tenantName, contact: input.email })
          .onConflictDoNothing({ target: tenants.code })
          .returning({ id: tenants.id, code: tenants.code });
        // a taken tenant code rolls back and tries again with a suffix
        if (!tenant) throw new TenantCodeTaken();
        await tx.insert(memberships).values({ accountId: accountRef, tenantRef: tenant.id });
        await tx.execute(sql`select set_config('app.tenant_id', ${String(tenant.id)}, true)`);
        const { admin: adminRole } = await ensureStandardRoles(tx, tenant.id);
        const [user] = await tx
          .insert(tenantUsers)
          .values({ tenantId: tenant.id, accountRef, userType: '01', createBy: input.accountId })
          .returning({ id: tenantUsers.id });
        await tx.insert(userRoles).values({ tenantId: tenant.id, userId: (user as { id: number }).id, roleId: adminRole });
        await tx.update(accounts).set({ lastTenantId: tenant.id }).where(eq(accounts.id, accountRef));
        return { accountRef, tenantId: tenant.id, tenantCode: tenant.code };
      });
    } catch (error) {
      if (error instanceof TenantCodeTaken) continue;
      if (error instanceof RegistrationRefused || isUniqueViolation(error)) {
        await tellOwnerOfRegistration(app, request, input.email);
        throw new AppError('accountExists');
      }
      throw error;
    }
  }
  if (!created) throw new AppError('conflict');
  const { token } = await app.sessions.create({ accountRef: created.accountRef, tenantId: created.tenantId, ...originOf(request) });
  await writeLoginLog(app, request, {
    account: input.accountId,
    result: 'register',
    accountRef: created.accountRef,
    tenantId: created.tenantId,
  });
  return { token, tenantId: created.tenantId, tenantCode: created.tenantCode };
}

class TenantCodeTaken extends Error {}
class RegistrationRefused extends Error {}

const registeredMail = (lang: 'zh-CN' | 'en-US') =>
  lang === 'en-US'
    ? {
        subject: 'Atrium: someone tried to register with your address',
        text: 'Someone just tried to register a new Atrium account with this e-mail address, which already has an account.\n\nIf it was you, sign in, or use "Forgot password" on the sign-in page. If it was not, you need do nothing.\n',
      }
    : {
        subject: 'Atrium：有人尝试用您的邮箱注册',
        text: '刚刚有人尝试用本邮箱注册新的 Atrium 账号，而该邮箱已有账号。\n\n如果是您本人，请直接登录，或在登录页使用“忘记密码”。如果不是，您无需任何操作。\n',
      };

/**
 * A refused registration answers the same 409 whether the account name or the e-mail was taken (the
 * answer names neither); when the e-mail belongs to an account, its owner is told by mail, after answering.
 */
async function tellOwnerOfRegistration(app: FastifyInstance, request: FastifyRequest, email: string) {
  const [owner] = await app.database.db
    .select({ email: accounts.email })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = ${email.toLowerCase()}`);
  if (!owner?.email) return;
  const sending = app.mailer
    .send({ to: owner.email, ...registeredMail(request.lang) })
    .catch((error: unknown) => request.log.error({ err: error }, 'registration notice not sent'));
  app.pendingMail.add(sending);
  void sending.finally(() => app.pendingMail.delete(sending));
}

const resetMail = (lang: 'zh-CN' | 'en-US', code: string) =>
  lang === 'en-US'
    ? {
        subject: 'Atrium password reset code',
        text: `Your password reset code is ${code}. It is valid for 15 minutes.\n\nIf you did not ask for it, ignore this message: your password stays as it is.\n`,
      }
    : {
        subject: 'Atrium 密码重置验证码',
        text: `您的密码重置验证码是 ${code}，15 分钟内有效。\n\n如果这不是您本人的操作，请忽略本邮件，您的密码不会改变。\n`,
      };

/**
 * Mails a reset code when the address belongs to an account. The answer is the same either way, and
 * the mail is sent after answering so the timing does not tell either.
 */
export async function requestResetCode(app: FastifyInstance, request: FastifyRequest, input: z.output<typeof resetCodeInputSchema>) {
  await app.captcha.require(input);
  const [account] = await app.database.db
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = ${input.email.toLowerCase()}`);
  if (!account?.email) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = app.clock.now();
  await app.database.db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.accountRef, account.id), isNull(passwordResets.usedAt)));
  await app.database.db
    .insert(passwordResets)
    .values({ accountRef: account.id, codeHash: sha256(code), expiresAt: new Date(now.getTime() + RESET_TTL_MS), createTime: now });
  const mail = { to: account.email, ...resetMail(request.lang, code) };
  const sending = app.mailer.send(mail).catch((error: unknown) => request.log.error({ err: error }, 'password reset mail not sent'));
  app.pendingMail.add(sending);
  void sending.finally(() => app.pendingMail.delete(sending));
}

/**
 * Sets a new password with a mailed code. A wrong code, an expired one and an unknown address all
 * answer 1006. Success ends every session of the account.
 */
export async function resetPassword(app: FastifyInstance, input: z.output<typeof resetPasswordInputSchema>) {
  assertPasswordPolicy(input.password);
  const now = app.clock.now();
  const [row] = await app.database.db
    .select({
      id: passwordResets.id,
      accountRef: passwordResets.accountRef,
      codeHash: passwordResets.codeHash,
      attempts: passwordResets.attempts,
    })
    .from(passwordResets)
    .innerJoin(accounts, eq(accounts.id, passwordResets.accountRef))
    .where(
      and(sql`lower(${accounts.email}) = ${input.email.toLowerCase()}`, isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)),
    )
    .orderBy(desc(passwordResets.id))
    .limit(1);
  const given = Buffer.from(sha256(input.resetCode.trim()));
  if (!row) throw new AppError('resetCodeInvalid');
  // one guarded statement takes an attempt: concurrent guesses cannot all be checked against the code
  const [attempt] = await app.database.db
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(and(eq(passwordResets.id, row.id), lt(passwordResets.attempts, RESET_MAX_ATTEMPTS), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  if (!attempt || !timingSafeEqual(Buffer.from(row.codeHash), given)) throw new AppError('resetCodeInvalid');
  const [spent] = await app.database.db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.id, row.id), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  // two requests racing with the same code: only one wins
  if (!spent) throw new AppError('resetCodeInvalid');
  await app.database.db
    .update(accounts)
    .set({ passwordHash: await hashPassword(input.password), passwordChangedAt: now, updateTime: now })
    .where(eq(accounts.id, row.accountRef));
  await app.sessions.end({ accountRef: row.accountRef, reason: 'password' });
}
