import { randomBytes } from 'node:crypto';
import type { CreateUserInput, Status, UpdateUserInput } from '@atrium/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { conflict, invalidField, refused, rethrowUnique } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { denied, grantGuard, unbounded } from '../../../crud/grants';
import { columnList, type RawResult } from '../../../db/client';
import {
  accountFactors,
  accounts,
  depts,
  memberships,
  posts,
  recoveryCodes,
  roles,
  tenantUsers,
  userPosts,
  userRoles,
} from '../../../db/schema';
import { forbidden, notFound } from '../../../errors';
import { can } from '../../../plugins/external/access';
import { guardIdentifierChange } from '../../auth/identifiers';
import { assertRecentSecondFactor } from '../../auth/mfa.service';
import { assertPasswordPolicy, hashPassword } from '../../auth/password';
import { endSessions, invalidateAccess } from '../../auth/session.service';
import { userRepository } from './user.repository';

const blank = (v: string | null | undefined) => (v ? v : null);

/** The account's own columns as a create or an update writes them (an empty text is no value). */
const accountProfile = (input: CreateUserInput | UpdateUserInput) => ({
  name: input.name,
  nickname: input.nickname || input.name,
  email: blank(input.email),
  phone: blank(input.phone),
  sex: input.sex ?? null,
  idNumber: blank(input.idNumber),
  address: blank(input.address),
  avatar: blank(input.avatar),
});
const app = (ctx: Ctx) => ctx.request.server;

/** Department, posts and roles must be this tenant's; a schema cannot know that. */
async function assertLinks(ctx: Ctx, input: { deptId?: number | null; postIds?: number[]; roleIds?: number[] }) {
  const tenantId = ctx.caller.tenantId;
  if (input.deptId) {
    const [d] = await ctx.tx
      .select({ id: depts.id })
      .from(depts)
      .where(and(eq(depts.tenantId, tenantId), eq(depts.id, input.deptId)));
    if (!d) throw invalidField('deptId', 'exists', 'ref.missing');
  }
  for (const [field, table, ids] of [
    ['postIds', posts, input.postIds],
    ['roleIds', roles, input.roleIds],
  ] as const) {
    const unique = [...new Set(ids ?? [])];
    if (!unique.length) continue;
    const found = await ctx.tx
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.tenantId, tenantId), inArray(table.id, unique)));
    if (found.length !== unique.length) throw invalidField(field, 'exists', 'ref.missing');
  }
}

/** The accounts' unique indexes, by the field whose value each keeps unique. */
const ACCOUNT_KEYS = { accounts_account_id_key: 'accountId', accounts_phone_key: 'phone', accounts_email_key: 'email' };

async function assertFree(ctx: Ctx, input: { accountId?: string; phone?: string | null; email?: string | null }, exceptAccount?: number) {
  const [first, ...rest] = await userRepository.takenFields(ctx, input, exceptAccount);
  if (first) throw conflict(first, ...rest);
}

/** The user a rule-guarded write may touch: visible, and a super admin only to a super admin. */
async function target(ctx: Ctx, id: number) {
  const found = await userRepository.find(ctx, id);
  if (!found) throw notFound();
  if ((found.superAdmin || found.user.userType === '00') && !ctx.caller.superAdmin) throw forbidden();
  return found;
}

/** Nobody disables or deletes themselves or the last enabled super admin of the tenant. */
async function assertRemovable(ctx: Ctx, id: number, found: Awaited<ReturnType<typeof target>>) {
  if (ctx.caller.userId === id) throw refused('id', 'self', 'user.self');
  if ((found.superAdmin || found.user.userType === '00') && (await userRepository.otherSuperAdmins(ctx, id)) === 0) {
    throw refused('id', 'lastSuperAdmin', 'user.lastSuperAdmin');
  }
}

const sameIds = (a: number[], b: number[]) => {
  const x = [...new Set(a)].sort((p, q) => p - q);
  const y = [...new Set(b)].sort((p, q) => p - q);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** Role assignment is its own permission (`system:user:grant`), on every route that can do it. */
function assertMayGrant(ctx: Ctx, field = 'roleIds') {
  if (!can(ctx.caller, 'system:user:grant')) throw denied(field, 'permission', 'user.grantPermission');
}

/** The tenant's enabled default roles: what a user created without roles gets. */
async function defaultRoles(ctx: Ctx) {
  const rows = await ctx.tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, ctx.caller.tenantId), eq(roles.isDefault, true), eq(roles.status, '0')));
  return rows.map((r) => Number(r.id));
}

/** Roles added or taken away: the grant permission, each role within what the caller holds, and a step-up for `admin`. */
async function assertRoleChange(ctx: Ctx, before: number[], after: number[]) {
  if (sameIds(before, after)) return;
  assertMayGrant(ctx);
  const added = after.filter((id) => !before.includes(id));
  await grantGuard.assertGrantable(ctx, [...added, ...before.filter((id) => !after.includes(id))]);
  await assertStepUpForAdmin(ctx, added);
}

/**
 * Granting the tenant's administrator role (`admin`) is a sensitive act: a caller with a second factor
 * proves it again when the last proof is older than five minutes (1022; docs/adr/050-passkeys.md).
 */
async function assertStepUpForAdmin(ctx: Ctx, granted: number[]) {
  if (granted.length === 0) return;
  const [admin] = await ctx.tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, ctx.caller.tenantId), eq(roles.code, 'admin'), inArray(roles.id, granted)));
  if (admin) await assertRecentSecondFactor(app(ctx), ctx.request.auth, ctx.tx);
}

/** Nobody changes their own roles, user type, status or department. */
function assertNotOwnPrivileges(
  ctx: Ctx,
  id: number,
  found: { roleIds: number[]; userType: string; status: string; deptId: number | null },
  input: { roleIds?: number[]; userType?: string; status?: string; deptId?: number | null },
) {
  if (ctx.caller.userId !== id) return;
  const changes: [string, boolean][] = [
    ['roleIds', input.roleIds !== undefined && !sameIds(found.roleIds, input.roleIds)],
    ['userType', input.userType !== undefined && input.userType !== found.userType],
    ['status', input.status !== undefined && input.status !== found.status],
    ['deptId', input.deptId !== undefined && (input.deptId ?? null) !== found.deptId],
  ];
  const field = changes.find(([, changed]) => changed)?.[0];
  if (field) throw denied(field, 'self', 'user.selfChange');
}

export const userService = {
  list: userRepository.list,
  get: userRepository.get,

  async create(ctx: Ctx, input: CreateUserInput) {
    if (input.userType === '00' && !ctx.caller.superAdmin) throw forbidden();
    await assertLinks(ctx, input);
    if (input.roleIds.length) {
      assertMayGrant(ctx);
      await grantGuard.assertGrantable(ctx, input.roleIds);
      await assertStepUpForAdmin(ctx, input.roleIds);
    } else if (!unbounded(ctx)) {
      // no roles chosen: the tenant's default roles, which the caller gives as much as chosen ones
      await grantGuard.assertGrantable(ctx, await defaultRoles(ctx), 'roleIds', 'user.defaultRoleExceedsOwn');
    }
    if (input.userType !== '02') assertMayGrant(ctx, 'userType');
    await grantGuard.assertDepartmentInScope(ctx, input.deptId);
    const tenantId = ctx.caller.tenantId;
    const by = ctx.caller.accountId;
    if (input.password) assertPasswordPolicy(input.password);
    // one statement: the account, its membership, the tenant's user and its role and post links (no
    // roles chosen: the tenant's enabled default roles). The sub-statements run on one snapshot, and
    // the foreign keys are checked at the statement's end, when every row is in.
    const newAccount = ctx.tx
      .insert(accounts)
      .values({
        accountId: input.accountId,
        ...accountProfile(input),
        passwordHash: input.password ? await hashPassword(input.password) : null,
        clientKey: randomBytes(16).toString('hex'),
        lastTenantId: tenantId,
      })
      // a taken account number, phone or e-mail makes no account (and so nothing else below); the
      // transaction stays usable to name every taken field at once
      .onConflictDoNothing()
      .returning({ id: accounts.id });
    const t = sql`${tenantId}::bigint`;
    const u = tenantUsers;
    const roleIds = [...new Set(input.roleIds)];
    const postIds = [...new Set(input.postIds)];
    const statement = sql`
      with new_account as (${newAccount.getSQL()}),
      new_membership as (
        insert into ${memberships} (${columnList(memberships.accountId, memberships.tenantRef)})
        select id, ${t} from new_account
      ),
      new_user as (
        insert into ${u} (${columnList(u.tenantId, u.accountRef, u.userType, u.deptId, u.status, u.remark, u.createBy, u.updateBy)})
        select ${t}, id, ${input.userType}::char(2), ${input.deptId ?? null}::bigint, ${input.status}::char(1),
               ${blank(input.remark)}::varchar, ${by}::varchar, ${by}::varchar
          from new_account
        returning id
      ),
      new_roles as (
        insert into ${userRoles} (${columnList(userRoles.tenantId, userRoles.userId, userRoles.roleId)})
        ${
          roleIds.length
            ? sql`select ${t}, new_user.id, role_id from new_user, unnest(${sql.param(roleIds)}::bigint[]) as role_id`
            : sql`select ${t}, new_user.id, ${roles.id} from new_user, ${roles}
                   where ${roles.tenantId} = ${t} and ${roles.isDefault} and ${roles.status} = '0'`
        }
      ),
      new_posts as (
        insert into ${userPosts} (${columnList(userPosts.tenantId, userPosts.userId, userPosts.postId)})
        select ${t}, new_user.id, post_id from new_user, unnest(${sql.param(postIds)}::bigint[]) as post_id
      )
      select id from new_user`;
    // a taken account number, phone or e-mail is the accounts' unique indexes' to find: one statement
    // fewer than asking first, and of two requests racing for one number the second waits for the
    // first and makes nothing. Only then are the taken fields looked up, all of them for one answer.
    const result = (await ctx.tx.execute(statement).catch((error: unknown) => rethrowUnique(error, ACCOUNT_KEYS))) as RawResult<{
      id: number | string;
    }>;
    if (!result.rows[0]) {
      const [first = 'accountId', ...rest] = await userRepository.takenFields(ctx, input);
      throw conflict(first, ...rest);
    }
    const created = await userRepository.get(ctx, Number(result.rows[0].id));
    // a user the caller could not see afterwards (their data scope: themselves only, or departments the
    // new one is not in) is not made: the refusal rolls the statement back
    if (!created) throw denied('deptId', 'outsideScope', 'user.outsideScope');
    return created;
  },

  async update(ctx: Ctx, id: number, input: UpdateUserInput) {
    const found = await target(ctx, id);
    if (input.userType === '00' && found.user.userType !== '00' && !ctx.caller.superAdmin) throw forbidden();
    assertNotOwnPrivileges(ctx, id, found.user, input);
    if (input.status === '1' && found.user.status !== '1') await assertRemovable(ctx, id, found);
    await assertLinks(ctx, input);
    if (input.roleIds !== undefined) await assertRoleChange(ctx, found.user.roleIds, input.roleIds);
    if (input.userType !== found.user.userType) assertMayGrant(ctx, 'userType');
    if ((input.deptId ?? null) !== found.user.deptId) await grantGuard.assertDepartmentInScope(ctx, input.deptId);
    await guardIdentifierChange(
      ctx,
      { userId: id, accountRef: found.accountRef, accountId: found.user.accountId, before: found.user },
      { email: blank(input.email), phone: blank(input.phone) },
    );
    await assertFree(ctx, input, found.accountRef);
    await ctx.tx
      .update(accounts)
      .set({
        ...accountProfile(input),
        updateTime: new Date(),
      })
      .where(eq(accounts.id, found.accountRef))
      // taken since the check above by a request racing this one
      .catch((error: unknown) => rethrowUnique(error, ACCOUNT_KEYS));
    await ctx.tx
      .update(tenantUsers)
      .set({
        userType: input.userType,
        deptId: input.deptId ?? null,
        status: input.status,
        remark: blank(input.remark),
        updateBy: ctx.caller.accountId,
        updateTime: new Date(),
      })
      .where(and(eq(tenantUsers.tenantId, ctx.caller.tenantId), eq(tenantUsers.id, id)));
    // links are rewritten only where they changed: an edit of the name leaves roles and posts alone
    const changed = (now: number[] | undefined, before: number[]) => (now !== undefined && !sameIds(now, before) ? now : undefined);
    await userRepository.replaceLinks(ctx, id, {
      roleIds: changed(input.roleIds, found.user.roleIds),
      postIds: changed(input.postIds, found.user.postIds),
    });
    afterUserChange(ctx, found.accountRef, input.status === '1' && found.user.status !== '1');
    return (await userRepository.get(ctx, id))!;
  },

  async setStatus(ctx: Ctx, id: number, status: Status) {
    const found = await target(ctx, id);
    if (status === '1') await assertRemovable(ctx, id, found);
    await grantGuard.assertHoldsAtLeast(ctx, id);
    await ctx.tx
      .update(tenantUsers)
      .set({ status, updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(eq(tenantUsers.tenantId, ctx.caller.tenantId), eq(tenantUsers.id, id)));
    afterUserChange(ctx, found.accountRef, status === '1');
    return (await userRepository.get(ctx, id))!;
  },

  async remove(ctx: Ctx, id: number) {
    const found = await target(ctx, id);
    await assertRemovable(ctx, id, found);
    await grantGuard.assertHoldsAtLeast(ctx, id);
    const tenantId = ctx.caller.tenantId;
    await ctx.tx.delete(tenantUsers).where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.id, id)));
    await ctx.tx.delete(memberships).where(and(eq(memberships.accountId, found.accountRef), eq(memberships.tenantRef, tenantId)));
    // an account that belongs nowhere any more goes too, freeing its account number, phone and email
    if (!found.superAdmin && (await userRepository.membershipsLeft(ctx, found.accountRef)) === 0) {
      await ctx.tx.delete(accounts).where(eq(accounts.id, found.accountRef));
    }
    ctx.afterCommit(() => endSessions(app(ctx), { reason: 'removed', accountRef: found.accountRef, tenantId }));
  },

  /**
   * A user whose credentials (password, API tokens) the caller may act on: in the tenant and the
   * caller's data scope, and holding no more than the caller unless it is the caller.
   */
  async credentialTarget(ctx: Ctx, id: number) {
    const found = await target(ctx, id);
    if (ctx.caller.userId !== id) await grantGuard.assertHoldsAtLeast(ctx, id);
    return found;
  },

  async resetPassword(ctx: Ctx, id: number, password: string) {
    assertPasswordPolicy(password);
    // setting someone's password is taking over their account: only one that holds no more than the caller
    const found = await userService.credentialTarget(ctx, id);
    await ctx.tx
      .update(accounts)
      .set({
        passwordHash: await hashPassword(password),
        passwordChangedAt: new Date(),
        updateTime: new Date(),
      })
      .where(eq(accounts.id, found.accountRef));
    ctx.afterCommit(() => endSessions(app(ctx), { reason: 'password', accountRef: found.accountRef }));
    return found.user;
  },

  /**
   * Removes another user's second factors (authenticator app and recovery codes), as a password reset
   * would: only one that holds no more than the caller, and never one's own (that needs a code from it,
   * DELETE /api/user/mfa/totp). Whether there was one to remove is answered; pending sign-ins end with it.
   */
  async removeFactors(ctx: Ctx, id: number) {
    const found = await target(ctx, id);
    if (ctx.caller.userId === id) throw refused('id', 'self', 'user.self');
    await grantGuard.assertHoldsAtLeast(ctx, id);
    const removed = await ctx.tx
      .delete(accountFactors)
      .where(eq(accountFactors.accountRef, found.accountRef))
      .returning({ confirmedAt: accountFactors.confirmedAt });
    await ctx.tx.delete(recoveryCodes).where(eq(recoveryCodes.accountRef, found.accountRef));
    return { user: found.user, removed: removed.some((r) => r.confirmedAt !== null) };
  },

  async assignRoles(ctx: Ctx, id: number, roleIds: number[]) {
    const found = await target(ctx, id);
    await assertLinks(ctx, { roleIds });
    assertNotOwnPrivileges(ctx, id, found.user, { roleIds });
    await assertRoleChange(ctx, found.user.roleIds, roleIds);
    await userRepository.replaceLinks(ctx, id, { roleIds });
    afterUserChange(ctx, found.accountRef, false);
    return { before: found.user.roleIds, after: (await userRepository.get(ctx, id))! };
  },
};

/** A changed user takes effect at their next request; a disabled one is signed out (1302). */
function afterUserChange(ctx: Ctx, accountRef: number, disabled: boolean) {
  const tenantId = ctx.caller.tenantId;
  ctx.afterCommit(() =>
    disabled
      ? endSessions(app(ctx), { reason: 'user_disabled', accountRef, tenantId })
      : // the account's own fields (name, phone…) show in every tenant it belongs to
        invalidateAccess(app(ctx), { accountRef }),
  );
}
