import { ACCOUNT_IDENTIFIER_FIELDS, type AccountIdentifierField } from '@atrium/contracts';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../../crud/context';
import { denied, grantGuard } from '../../crud/grants';
import { memberships } from '../../db/schema';
import { tokenRefused } from './api-token.service';
import { sendNotice } from './mailer';

type Identifiers = Partial<Record<AccountIdentifierField, string | null | undefined>>;

/** Identifiers compare as the sign-in compares them: blank is none, account numbers and e-mails ignore case. */
const normal = (field: AccountIdentifierField, value: string | null | undefined) => {
  const v = value?.trim() || null;
  return v && field !== 'phone' ? v.toLowerCase() : v;
};

/** The identifier fields `after` gives a value that differs from `before` (a field `after` leaves out is unchanged). */
export function changedIdentifiers(before: Identifiers, after: Identifiers): AccountIdentifierField[] {
  return ACCOUNT_IDENTIFIER_FIELDS.filter((f) => after[f] !== undefined && normal(f, after[f]) !== normal(f, before[f]));
}

/**
 * The one rule for changing what signs an account in or recovers it (account number, e-mail, phone) from
 * someone else's hands, on every route that can: for another account it needs what resetting its password
 * needs, "holds at least what the target holds" in this tenant; an account that is also a member of other
 * tenants only a super admin changes (what it holds there is out of this tenant's sight). One's own are
 * changed only behind the current password (PUT /api/user/contact), never through the user form. When the
 * change is allowed, the account's previous e-mail is told once the transaction commits.
 * Returns the changed fields (none: nothing to check, nothing to tell).
 */
export async function guardIdentifierChange(
  ctx: Ctx,
  target: { userId: number; accountRef: number; accountId: string; before: Identifiers },
  after: Identifiers,
): Promise<AccountIdentifierField[]> {
  const changed = changedIdentifiers(target.before, after);
  const field = changed[0];
  if (!field) return changed;
  // what signs an account in changes only in a signed-in session, never with an API token (ADR 047)
  if (ctx.caller.tokenId !== undefined) throw tokenRefused(field);
  if (ctx.caller.userId === target.userId) throw denied(field, 'self', 'user.ownIdentifier');
  await grantGuard.assertHoldsAtLeast(ctx, target.userId, field, 'user.identifierHoldsMore');
  if (!ctx.caller.superAdmin) {
    const [elsewhere] = await ctx.tx
      .select({ tenant: memberships.tenantRef })
      .from(memberships)
      .where(and(eq(memberships.accountId, target.accountRef), ne(memberships.tenantRef, ctx.caller.tenantId)))
      .limit(1);
    if (elsewhere) throw denied(field, 'otherTenants', 'user.identifierOtherTenants');
  }
  const previous = target.before.email;
  if (previous) {
    const app = ctx.request.server;
    const request = ctx.request;
    ctx.afterCommit(() => tellIdentifierChange(app, request, previous, { accountId: target.accountId, fields: changed }));
  }
  return changed;
}

const fieldNames = {
  'zh-CN': { accountId: '账号', email: '邮箱', phone: '手机号' },
  'en-US': { accountId: 'account name', email: 'e-mail address', phone: 'phone number' },
} as const;

const changeMail = (lang: 'zh-CN' | 'en-US', accountId: string, fields: AccountIdentifierField[]) => {
  const names = fields.map((f) => fieldNames[lang][f]);
  return lang === 'en-US'
    ? {
        subject: 'Atrium: your sign-in details were changed',
        text: `The ${names.join(' and ')} of your Atrium account ${accountId} changed just now.\n\nIf you did not expect this, ask your administrator at once: whoever holds the new details can reset your password.\n`,
      }
    : {
        subject: 'Atrium 登录信息已被修改',
        text: `您的 Atrium 账号 ${accountId} 的${names.join('和')}刚刚被修改。\n\n如果这不是您预期的，请立即联系管理员：掌握新信息的人可以重置您的密码。\n`,
      };
};

/**
 * Tells an account's previous e-mail that a sign-in or recovery identifier changed, through the mailer the
 * password reset uses; sent after the answer, a failure only logged.
 */
export function tellIdentifierChange(
  app: FastifyInstance,
  request: FastifyRequest,
  to: string,
  change: { accountId: string; fields: AccountIdentifierField[] },
) {
  sendNotice(app, request, { to, ...changeMail(request.lang, change.accountId, change.fields) }, 'identifier change');
}
