import type { TenantOption } from '@atrium/contracts';
import { and, asc, count, eq, gt, ilike, isNull, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accounts, memberships, tenants } from '../../db/schema';
import { AppError } from '../../errors';
import type { AuthContext } from '../../plugins/external/access';
import { originOf, PAST_SSO_ONLY, writeLoginLog } from './login.service';
import { ssoOnly } from './sso.service';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Tenants the account may enter (a super admin: all), paged, searchable by name and code. */
export async function listTenants(
  app: FastifyInstance,
  auth: AuthContext,
  query: { pageNum: number; pageSize: number; name?: string; code?: string; keyword?: string },
): Promise<{ list: TenantOption[]; total: number }> {
  const where: SQL[] = [];
  if (query.name) where.push(ilike(tenants.name, `%${escapeLike(query.name)}%`));
  if (query.code) where.push(ilike(tenants.code, `%${escapeLike(query.code)}%`));
  if (query.keyword) {
    const pattern = `%${escapeLike(query.keyword)}%`;
    where.push(or(ilike(tenants.name, pattern), ilike(tenants.code, pattern)) as SQL);
  }
  if (!auth.superAdmin) where.push(eq(memberships.accountId, auth.accountRef));
  const filter = where.length ? and(...where) : undefined;
  const columns = { id: tenants.id, code: tenants.code, name: tenants.name, status: tenants.status, expireTime: tenants.expireTime };
  const db = app.database.db;
  const [rows, totals] = auth.superAdmin
    ? await Promise.all([
        db
          .select(columns)
          .from(tenants)
          .where(filter)
          .orderBy(asc(tenants.id))
          .limit(query.pageSize)
          .offset((query.pageNum - 1) * query.pageSize),
        db.select({ n: count() }).from(tenants).where(filter),
      ])
    : await Promise.all([
        db
          .select(columns)
          .from(memberships)
          .innerJoin(tenants, eq(tenants.id, memberships.tenantRef))
          .where(filter)
          .orderBy(asc(tenants.id))
          .limit(query.pageSize)
          .offset((query.pageNum - 1) * query.pageSize),
        db.select({ n: count() }).from(memberships).innerJoin(tenants, eq(tenants.id, memberships.tenantRef)).where(filter),
      ]);
  return {
    list: rows.map((t) => ({
      id: t.id,
      code: t.code,
      name: t.name,
      status: t.status === '1' ? '1' : '0',
      expireTime: t.expireTime?.toISOString() ?? null,
      current: t.id === auth.tenantId,
    })),
    total: totals[0]?.n ?? 0,
  };
}

/**
 * Moves the caller into another tenant: a new session there (a fresh token) and the old one ended.
 * 403 for a tenant that does not exist, is disabled or expired, or that the account may not enter.
 */
export async function switchTenant(app: FastifyInstance, request: FastifyRequest, tenantId: number): Promise<{ token: string }> {
  const auth = request.auth;
  const now = app.clock.now();
  const [tenant] = await app.database.db
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), eq(tenants.status, '0'), or(isNull(tenants.expireTime), gt(tenants.expireTime, now))));
  if (!tenant) throw new AppError('tenantNotAllowed');
  if (!auth.superAdmin) {
    const [member] = await app.database.db
      .select({ tenantId: memberships.tenantRef })
      .from(memberships)
      .where(and(eq(memberships.accountId, auth.accountRef), eq(memberships.tenantRef, tenantId)));
    if (!member) throw new AppError('tenantNotAllowed');
  }
  // the membership may exist while the user is disabled in that tenant
  const access = await app.sessions.access(auth.accountRef, tenantId, { fresh: true });
  if (!access.ok) throw new AppError('tenantNotAllowed');
  const [previous] = await app.database.query<{ remember: boolean; method: string | null }>(
    'select remember, method from sessions where id = $1',
    [auth.sessionId],
  );
  // a tenant's provider vouched for this person in that tenant alone: its session moves nowhere else
  // (docs/adr/049-single-sign-on-per-tenant.md)
  if (previous?.method === 'sso') throw new AppError('tenantNotAllowed');
  // a tenant signing in by its provider alone is not entered by a password session from elsewhere
  const pastSsoOnly = await ssoOnly(app, tenantId);
  if (pastSsoOnly && !auth.superAdmin) throw new AppError('ssoOnly');
  const { token } = await app.sessions.create({
    accountRef: auth.accountRef,
    tenantId,
    remember: previous?.remember ?? false,
    ...originOf(request),
  });
  await app.database.db.update(accounts).set({ lastTenantId: tenantId }).where(eq(accounts.id, auth.accountRef));
  await app.sessions.end({ sessionIds: [auth.sessionId], reason: 'switched' });
  if (pastSsoOnly) {
    await writeLoginLog(app, request, {
      account: auth.accountId,
      result: 'success',
      reason: PAST_SSO_ONLY,
      accountRef: auth.accountRef,
      tenantId,
    });
  }
  return { token };
}
