import type { ChangeContactInput, ChangePasswordInput, UserInfo, UserSettingsInput } from '@atrium/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { conflict, invalidField, rethrowUnique } from '../../crud/conflict';
import type { RawResult } from '../../db/client';
import { accounts, tenants } from '../../db/schema';
import type { AuthContext } from '../../plugins/external/access';
import { changedIdentifiers, tellIdentifierChange } from './identifiers';
import { assertPasswordPolicy, hashPassword, verifyPassword } from './password';
import { invalidateAccess } from './session.service';

/** The spec's user-info fields for the signed-in account in its current tenant. */
export async function userInfo(app: FastifyInstance, auth: AuthContext): Promise<UserInfo> {
  const [row] = await app.database.db
    .select({
      account: accounts,
      tenantName: tenants.name,
      // the tenants "switch tenant" lists (a super admin: all)
      tenantCount: auth.superAdmin
        ? sql<number>`(select count(*)::int from tenants)`
        : sql<number>`(select count(*)::int from memberships m where m.account_id = ${accounts.id})`,
    })
    .from(accounts)
    .innerJoin(tenants, eq(tenants.id, auth.tenantId))
    .where(eq(accounts.id, auth.accountRef));
  if (!row) throw new Error('the session names an account that is gone');
  const a = row.account;
  return {
    nickname: a.nickname,
    name: a.name,
    avatar: a.avatar,
    userType: auth.userType,
    email: a.email,
    wechat: a.wechat,
    idNumber: a.idNumber,
    countryRegion: a.countryRegion,
    address: a.address,
    area: a.area,
    phone: a.phone,
    sex: (a.sex as UserInfo['sex']) ?? null,
    accountId: a.accountId,
    remark: a.remark,
    createTime: a.createTime.toISOString(),
    password: a.passwordHash !== null,
    role: auth.role,
    roles: auth.roles,
    heldRoles: auth.heldRoles,
    activeRole: auth.activeRole,
    tenantCount: Number(row.tenantCount),
    tenantId: auth.tenantId,
    tenantName: row.tenantName,
    tenantCode: auth.tenantCode,
    permissions: [...auth.permissions].sort(),
    clientKey: auth.clientKey,
  };
}

export type UserProfile = UserInfo & {
  profile: string | null;
  deptId: number | null;
  deptName: string | null;
  postNames: string[];
  roleNames: string[];
  lastLoginTime: string | null;
  lastLoginIp: string | null;
};

/** What the user-info page shows: user info plus department, posts, role names and the latest sign-in. */
export async function userProfile(app: FastifyInstance, auth: AuthContext): Promise<UserProfile> {
  const info = await userInfo(app, auth);
  const [account] = await app.database.db.select({ profile: accounts.profile }).from(accounts).where(eq(accounts.id, auth.accountRef));
  const extra = await app.withTenant(auth.tenantId, async (tx) => {
    const result = (await tx.execute(sql`
      select (select d.name from depts d where d.tenant_id = tu.tenant_id and d.id = tu.dept_id) as dept_name,
             coalesce((select json_agg(p.name order by p.order_num, p.id) from user_posts up
                         join posts p on p.tenant_id = up.tenant_id and p.id = up.post_id
                        where up.tenant_id = tu.tenant_id and up.user_id = tu.id), '[]'::json) as post_names,
             coalesce((select json_agg(r.name order by r.order_num, r.id) from user_roles ur
                         join roles r on r.tenant_id = ur.tenant_id and r.id = ur.role_id
                        where ur.tenant_id = tu.tenant_id and ur.user_id = tu.id), '[]'::json) as role_names
        from tenant_users tu
       where tu.tenant_id = ${auth.tenantId} and tu.account_ref = ${auth.accountRef}`)) as RawResult<{
      dept_name: string | null;
      post_names: string[];
      role_names: string[];
    }>;
    return result.rows[0] ?? null;
  });
  // the latest sign-in in this tenant (login_logs is under row-level security): the first successful one
  // of the page's recent activity (GET /api/user/activity), which reads the same rows in the same order
  const last = await app.withTenant(auth.tenantId, async (tx) => {
    const result = (await tx.execute(
      sql`select create_time, ip from login_logs where account_ref = ${auth.accountRef} and result = 'success' order by create_time desc, id desc limit 1`,
    )) as RawResult<{ create_time: Date | string; ip: string | null }>;
    return result.rows[0];
  });
  return {
    ...info,
    profile: account?.profile ?? null,
    deptId: auth.deptId,
    deptName: extra?.dept_name ?? null,
    postNames: extra?.post_names ?? [],
    roleNames: extra?.role_names ?? [],
    lastLoginTime: last ? new Date(last.create_time).toISOString() : null,
    lastLoginIp: last?.ip ?? null,
  };
}

/**
 * Saves the signed-in user's own basic settings (the user-setting page); the cached user info is
 * dropped so the next `userInfoLogin` reads the new values.
 */
export async function saveOwnSettings(app: FastifyInstance, auth: AuthContext, input: UserSettingsInput): Promise<UserProfile> {
  // the e-mail signs in and recovers the password: it changes only with the current password (PUT
  // /user/contact), never from a session alone; here it is the stored one, sent back as it is
  const [own] = await app.database.db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, auth.accountRef));
  if ((own?.email ?? '').toLowerCase() !== input.email.toLowerCase()) {
    throw invalidField('email', 'contact', 'email.viaContact');
  }
  await app.database.db
    .update(accounts)
    .set({
      email: input.email,
      nickname: input.nickname,
      countryRegion: input.countryRegion,
      area: input.area,
      address: input.address || null,
      profile: input.profile || null,
      updateTime: new Date(),
    })
    .where(eq(accounts.id, auth.accountRef))
    .catch((e) => rethrowUnique(e, { accounts_email_key: 'email' }));
  invalidateAccess(app, { accountRef: auth.accountRef });
  return userProfile(app, auth);
}

/**
 * Changes the signed-in user's password: the current one must match (400 naming `oldPassword`), the
 * new one must pass the password policy (400 naming `newPassword`); the user's other sessions end,
 * this one stays. Answers how many sessions ended.
 */
export async function changeOwnPassword(
  app: FastifyInstance,
  auth: AuthContext,
  input: ChangePasswordInput,
): Promise<{ endedSessions: number }> {
  const [account] = await app.database.db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, auth.accountRef));
  if (!account?.hash || !(await verifyPassword(account.hash, input.oldPassword))) {
    throw invalidField('oldPassword', 'wrong', 'password.wrong');
  }
  assertPasswordPolicy(input.newPassword, 'newPassword');
  if (input.newPassword === input.oldPassword) throw invalidField('newPassword', 'same', 'password.same');
  const now = app.clock.now();
  await app.database.db
    .update(accounts)
    .set({ passwordHash: await hashPassword(input.newPassword), passwordChangedAt: now, updateTime: now })
    .where(eq(accounts.id, auth.accountRef));
  const ended = await app.sessions.end({ accountRef: auth.accountRef, exceptSessionId: auth.sessionId, reason: 'password' });
  return { endedSessions: ended.length };
}

/**
 * Changes the signed-in user's phone and e-mail, the identifiers one signs in with: the current password
 * must match (400 naming `password`); a phone or e-mail of another account is a 409 naming it. The user's
 * other sessions stay (the password is unchanged), the cached user info is dropped; the previous e-mail is told.
 */
export async function changeOwnContact(app: FastifyInstance, request: FastifyRequest, input: ChangeContactInput): Promise<UserProfile> {
  const auth = request.auth;
  const [account] = await app.database.db
    .select({ hash: accounts.passwordHash, accountId: accounts.accountId, email: accounts.email, phone: accounts.phone })
    .from(accounts)
    .where(eq(accounts.id, auth.accountRef));
  if (!account?.hash || !(await verifyPassword(account.hash, input.password))) {
    throw invalidField('password', 'wrong', 'password.wrong');
  }
  const phone = input.phone || null;
  const [emailTaken] = await app.database.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = lower(${input.email})`, ne(accounts.id, auth.accountRef)))
    .limit(1);
  if (emailTaken) throw conflict('email');
  if (phone) {
    const [phoneTaken] = await app.database.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.phone, phone), ne(accounts.id, auth.accountRef)))
      .limit(1);
    if (phoneTaken) throw conflict('phone');
  }
  await app.database.db
    .update(accounts)
    .set({ email: input.email, phone, updateTime: app.clock.now() })
    .where(eq(accounts.id, auth.accountRef))
    .catch((e) => rethrowUnique(e, { accounts_email_key: 'email', accounts_phone_key: 'phone' }));
  // the previous address hears of it, as it does when someone else changes them
  const fields = changedIdentifiers(account, { email: input.email, phone });
  if (account.email && fields.length) tellIdentifierChange(app, request, account.email, { accountId: account.accountId, fields });
  invalidateAccess(app, { accountRef: auth.accountRef });
  return userProfile(app, auth);
}
