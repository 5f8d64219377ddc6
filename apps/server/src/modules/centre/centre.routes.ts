import {
  type Approval,
  approvalDecisionSchema,
  approvalInputSchema,
  approvalResource,
  approvalSchema,
  certificationInputSchema,
  certificationRequestSchema,
  certificationReviewResource,
  certificationReviewSchema,
  certificationSchema,
  hasPermission,
  ownSessionSchema,
  pageOf,
  pinsSchema,
  userActivitySchema,
  workbenchSchema,
  workplaceQuerySchema,
  workplaceSchema,
} from '@atrium/contracts';
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dayIn, tenantTimeZone } from '../../crud/business-day';
import { refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { pageOffset } from '../../crud/paging';
import { isoDates, orderOf, startsWith } from '../../crud/query';
import { typedRoute } from '../../crud/typed-route';
import type { RawResult } from '../../db/client';
import {
  accounts,
  loginLogs,
  notifications,
  operLogs,
  paramApprovalRecords,
  paramApprovals,
  sessions,
  tenants,
  userCertifications,
  userPins,
} from '../../db/schema';
import { notFound } from '../../errors';
import { endSessions } from '../auth/session.service';
import { lowStock, memberCounts, pendingReleaseApprovals, workplaceSales } from '../dashboard/aggregates';
import { uncategorisedLabel } from '../dashboard/dashboard.routes';
import { unreadCounts } from '../realtime/notification.repository';

const idParam = z.object({ id: z.coerce.number().int().positive() });
/** The user centre's routes: the signed-in person's own data (OpenAPI group `user`). */
const centre = { domain: 'user', name: 'centre' };

// ---- parameter approvals (the basic profile) ----

async function approvalOf(ctx: Ctx, id: number): Promise<Approval | null> {
  const [row] = await ctx.tx.select().from(paramApprovals).where(eq(paramApprovals.id, id));
  if (!row) return null;
  const records = await ctx.tx
    .select()
    .from(paramApprovalRecords)
    .where(eq(paramApprovalRecords.approvalId, id))
    .orderBy(asc(paramApprovalRecords.id));
  const { tenantId: _t, updateBy: _u, ...rest } = isoDates(row);
  return {
    ...rest,
    stage: row.stage as Approval['stage'],
    records: records.map(({ tenantId: _r, approvalId: _a, ...record }) => ({
      ...isoDates(record),
      stage: record.stage as Approval['stage'],
      result: record.result as Approval['records'][number]['result'],
    })),
  };
}

/** An approval someone other than `accountId` committed: the only kind they may decide (or have waiting for them). */
const committedByOther = (accountId: string) => sql`lower(coalesce(${paramApprovals.createBy}, '')) <> lower(${accountId})`;

/** AP + yyyymmdd (the tenant's business day) + a per-tenant running number. */
async function nextNumber(ctx: Ctx): Promise<string> {
  const day = dayIn(await tenantTimeZone(ctx)).replaceAll('-', '');
  const [row] = await ctx.tx
    .select({ n: count() })
    .from(paramApprovals)
    .where(sql`${paramApprovals.number} like ${`AP${day}%`}`);
  return `AP${day}${String((row?.n ?? 0) + 1).padStart(4, '0')}`;
}

function approvalRoutes(app: FastifyInstance) {
  const listQuery = approvalResource.listQuery;
  typedRoute(
    app,
    approvalResource,
    { method: 'GET', url: '/profile/approval', action: 'list', query: listQuery, response: pageOf(approvalSchema.omit({ records: true })) },
    async (ctx, { query }) => {
      const where = and(startsWith(paramApprovals.title, query.title), query.stage ? eq(paramApprovals.stage, query.stage) : undefined);
      const page = pageOffset(query);
      const rows = await ctx.tx
        .select()
        .from(paramApprovals)
        .where(where)
        .orderBy(...orderOf(query.sort, { createTime: paramApprovals.createTime, number: paramApprovals.number }, paramApprovals.id))
        .limit(page.limit)
        .offset(page.offset);
      const [total] = await ctx.tx.select({ n: count() }).from(paramApprovals).where(where);
      return {
        list: rows.map(({ tenantId: _t, updateBy: _u, ...row }) => ({ ...isoDates(row), stage: row.stage as Approval['stage'] })),
        total: total?.n ?? 0,
        pageNum: query.pageNum,
        pageSize: query.pageSize,
      };
    },
  );

  typedRoute(
    app,
    approvalResource,
    { method: 'GET', url: '/profile/approval/:id', action: 'query', params: idParam, response: approvalSchema },
    async (ctx, { params }) => {
      const approval = await approvalOf(ctx, params.id);
      if (!approval) throw notFound();
      return approval;
    },
  );

  typedRoute(
    app,
    approvalResource,
    {
      method: 'POST',
      url: '/profile/approval',
      action: 'create',
      body: approvalInputSchema,
      response: approvalSchema,
      write: true,
      summary: 'Commits a parameter change: the commit stage passes and the approval stage waits (auditing)',
    },
    async (ctx, { body }) => {
      const by = ctx.caller.accountId;
      const number = await nextNumber(ctx);
      const [row] = await ctx.tx
        .insert(paramApprovals)
        .values({ tenantId: ctx.caller.tenantId, number, ...body, stage: 'approval', createBy: by, updateBy: by })
        .returning({ id: paramApprovals.id });
      const id = (row as { id: number }).id;
      // the people who may decide it hear of it in their message box (not the one who committed it)
      const approvers = (await ctx.tx.execute(sql`
        select distinct tu.account_ref::int as account_ref
          from tenant_users tu
          join user_roles ur on ur.tenant_id = tu.tenant_id and ur.user_id = tu.id
          join roles r on r.tenant_id = ur.tenant_id and r.id = ur.role_id and r.status = '0'
          join role_menus rm on rm.tenant_id = r.tenant_id and rm.role_id = r.id
          join menus m on m.id = rm.menu_id and m.status = '0' and m.permission = 'profile:approval:approve'
         where tu.status = '0' and tu.account_ref <> ${ctx.caller.accountRef}`)) as RawResult<{ account_ref: number }>;
      ctx.afterCommit(() =>
        app
          .notify({
            tenantId: ctx.caller.tenantId,
            accountRefs: approvers.rows.map((a) => Number(a.account_ref)),
            type: 'todo',
            title: `${number} · ${body.title}`.slice(0, 200),
            content: '待审批 · Waiting for approval',
            link: `/profile/basic?id=${id}`,
            sender: by,
          })
          .catch((err: unknown) => app.log.warn({ err }, 'approvers not notified')),
      );
      await ctx.tx.insert(paramApprovalRecords).values([
        { tenantId: ctx.caller.tenantId, approvalId: id, stage: 'commit', result: 'pass', operator: by },
        { tenantId: ctx.caller.tenantId, approvalId: id, stage: 'approval', result: 'auditing', operator: null },
      ]);
      return (await approvalOf(ctx, id)) as Approval;
    },
  );

  typedRoute(
    app,
    approvalResource,
    {
      method: 'PUT',
      url: '/profile/approval/:id/decision',
      action: 'approve',
      params: idParam,
      body: approvalDecisionSchema,
      response: approvalSchema,
      write: true,
      summary:
        'Decides the approval stage: pass moves it to finish, rejected ends it; 409 once decided, and to the person who committed it',
    },
    async (ctx, { params, body }) => {
      const by = ctx.caller.accountId;
      // compare-and-set: only an approval still waiting moves, so two deciders cannot both win; and
      // nobody decides a change they committed themselves (a second person, as for release tasks)
      const moved = await ctx.tx
        .update(paramApprovals)
        .set({ stage: 'finish', updateBy: by, updateTime: new Date() })
        .where(and(eq(paramApprovals.id, params.id), eq(paramApprovals.stage, 'approval'), committedByOther(by)))
        .returning({ id: paramApprovals.id });
      if (moved.length === 0) {
        const approval = await approvalOf(ctx, params.id);
        if (!approval) throw notFound();
        if (approval.stage === 'approval') throw refused('createBy', 'self', 'approval.selfDecision');
        throw refused('stage', 'transition', 'approval.decided');
      }
      await ctx.tx
        .update(paramApprovalRecords)
        .set({ result: body.result, operator: by, remark: body.remark, createTime: new Date() })
        .where(
          and(
            eq(paramApprovalRecords.approvalId, params.id),
            eq(paramApprovalRecords.stage, 'approval'),
            eq(paramApprovalRecords.result, 'auditing'),
          ),
        );
      await ctx.tx
        .insert(paramApprovalRecords)
        .values({ tenantId: ctx.caller.tenantId, approvalId: params.id, stage: 'finish', result: body.result, operator: by });
      return (await approvalOf(ctx, params.id)) as Approval;
    },
  );
}

// ---- enterprise certification: the applicant's requests, a platform administrator's review ----

type CertificationOut = z.infer<typeof certificationSchema>;
const certificationOf = ({ tenantId: _t, accountRef: _a, ...row }: typeof userCertifications.$inferSelect): CertificationOut => ({
  ...isoDates(row),
  accountType: row.accountType as CertificationOut['accountType'],
  certificateType: row.certificateType as CertificationOut['certificateType'],
  status: row.status as CertificationOut['status'],
});

/**
 * The review queue of the tenant the platform administrator is signed in to (ADR 039): approve, or
 * reject with a reason; the applicant is told in their message box. Only a request still under review
 * moves (compare-and-set), so a withdrawal and a review, or two reviewers, cannot both win.
 */
function certificationReviewRoutes(app: FastifyInstance) {
  const listQuery = certificationReviewResource.listQuery;
  const requests = (ctx: Ctx) =>
    ctx.tx
      .select({ row: userCertifications, account: accounts.accountId, applicant: accounts.name })
      .from(userCertifications)
      .innerJoin(accounts, eq(accounts.id, userCertifications.accountRef));
  const requestOf = (r: { row: typeof userCertifications.$inferSelect; account: string; applicant: string }) => ({
    ...certificationOf(r.row),
    account: r.account,
    applicant: r.applicant,
  });

  typedRoute(
    app,
    certificationReviewResource,
    {
      method: 'GET',
      url: '/system/certification',
      action: 'list',
      query: listQuery,
      response: pageOf(certificationRequestSchema),
      summary: "The tenant's enterprise certification requests, for a platform administrator to review",
    },
    async (ctx, { query }) => {
      const where = query.status ? eq(userCertifications.status, query.status) : undefined;
      const page = pageOffset(query);
      const rows = await requests(ctx)
        .where(where)
        .orderBy(...orderOf(query.sort, { createTime: userCertifications.createTime }, userCertifications.id))
        .limit(page.limit)
        .offset(page.offset);
      const [total] = await ctx.tx.select({ n: count() }).from(userCertifications).where(where);
      return { list: rows.map(requestOf), total: total?.n ?? 0, pageNum: query.pageNum, pageSize: query.pageSize };
    },
  );

  typedRoute(
    app,
    certificationReviewResource,
    {
      method: 'PUT',
      url: '/system/certification/:id/review',
      action: 'review',
      params: idParam,
      body: certificationReviewSchema,
      response: certificationRequestSchema,
      write: true,
      summary: 'Approves or rejects (with a reason) a request still under review; 409 once reviewed or withdrawn',
    },
    async (ctx, { params, body }) => {
      const by = ctx.caller.accountId;
      const [moved] = await ctx.tx
        .update(userCertifications)
        .set({
          status: body.result,
          reviewBy: by,
          reviewTime: new Date(),
          reviewReason: body.result === 'rejected' ? body.reason : '',
          updateTime: new Date(),
        })
        .where(and(eq(userCertifications.id, params.id), eq(userCertifications.status, 'auditing')))
        .returning({ id: userCertifications.id });
      const [found] = await requests(ctx).where(eq(userCertifications.id, params.id));
      if (!found) throw notFound();
      if (!moved) throw refused('status', 'transition', 'certification.reviewed');
      const { row } = found;
      const passed = body.result === 'passed';
      ctx.afterCommit(() =>
        app
          .notify({
            tenantId: ctx.caller.tenantId,
            accountRefs: [row.accountRef],
            type: 'message',
            title: (passed ? '企业认证已通过 · Certification approved' : '企业认证未通过 · Certification rejected').slice(0, 200),
            content: `${row.enterpriseName}${passed ? '' : ` · ${body.reason}`}`.slice(0, 5000),
            link: '/user/setting?tab=certification',
            sender: by,
          })
          .catch((err: unknown) => app.log.warn({ err }, 'applicant not told of the review')),
      );
      return requestOf(found);
    },
  );
}

// ---- the user centre: the signed-in person's own data, no permission beyond being signed in ----

function userCentreRoutes(app: FastifyInstance) {
  typedRoute(
    app,
    centre,
    {
      method: 'GET',
      url: '/user/workplace',
      signedIn: 'any',
      query: workplaceQuerySchema,
      response: workplaceSchema,
      summary: 'The workplace: sales, members and stock sums (each only for a holder of its list permission), approvals and notices',
      inTenant: true,
    },
    async (ctx) => {
      // "today" and "this month" are the tenant's business days, whatever zone the browser is in
      const tz = await tenantTimeZone(ctx);
      const may = (permission: string) => hasPermission(ctx.caller.permissions, permission);
      const owner = { tenantId: ctx.caller.tenantId, accountRef: ctx.caller.accountRef };
      const notices = await ctx.tx
        .select({ id: notifications.id, title: notifications.title, createTime: notifications.createTime, read: notifications.read })
        .from(notifications)
        .where(and(eq(notifications.accountRef, owner.accountRef), eq(notifications.type, 'notice')))
        .orderBy(desc(notifications.createTime), desc(notifications.id))
        .limit(5);
      return {
        sales: may('erp:sale:list') ? await workplaceSales(ctx.tx, tz, uncategorisedLabel(ctx.request)) : null,
        members: may('erp:member:list') ? await memberCounts(ctx.tx, tz) : null,
        lowStock: may('erp:product:query') ? await lowStock(ctx.tx) : null,
        pendingApprovals: await pendingReleaseApprovals(ctx.tx, ctx.caller.userId),
        notices: notices.map(isoDates),
      };
    },
  );

  typedRoute(
    app,
    centre,
    {
      method: 'GET',
      url: '/user/workbench',
      signedIn: 'any',
      response: workbenchSchema,
      summary: "The staging workbench: to-dos, the user's recent release tasks and orders, pinned shortcuts",
      inTenant: true,
    },
    async (ctx) => {
      const { caller } = ctx;
      const unread = await unreadCounts(ctx.tx, { tenantId: caller.tenantId, accountRef: caller.accountRef });
      const mayDecide = hasPermission(caller.permissions, 'profile:approval:approve');
      // what waits for the caller: not the changes they committed themselves (someone else decides those)
      const [waiting] = mayDecide
        ? await ctx.tx
            .select({ n: count() })
            .from(paramApprovals)
            .where(and(eq(paramApprovals.stage, 'approval'), committedByOther(caller.accountId)))
        : [];
      const tasks = (await ctx.tx.execute(sql`
        select t.id::int as id, p.name as project, e.name as env, t.version, t.status, t.create_time
          from release_tasks t
          join release_projects p on p.tenant_id = t.tenant_id and p.id = t.project_id
          join release_envs e on e.tenant_id = t.tenant_id and e.id = t.env_id
         where t.created_by_account = ${caller.accountRef}
         order by t.id desc limit 5`)) as RawResult<{
        id: number;
        project: string;
        env: string;
        version: string;
        status: string;
        create_time: Date | string;
      }>;
      const orders = hasPermission(caller.permissions, 'erp:sale:list')
        ? ((await ctx.tx.execute(sql`
            select id::int as id, order_no, status, total_amount::float8 as total_amount, create_time
              from erp_sales where create_by = ${caller.accountId} order by create_time desc, id desc limit 5`)) as RawResult<{
            id: number;
            order_no: string;
            status: string;
            total_amount: number;
            create_time: Date | string;
          }>)
        : { rows: [] };
      const [pins] = await ctx.tx.select({ pins: userPins.pins }).from(userPins).where(eq(userPins.accountRef, caller.accountRef));
      return {
        todos: {
          unreadNotices: unread.notice,
          unreadMessages: unread.message,
          unreadTodos: unread.todo,
          approvals: mayDecide ? (waiting?.n ?? 0) : null,
          releaseApprovals: await pendingReleaseApprovals(ctx.tx, caller.userId),
        },
        tasks: tasks.rows.map(({ create_time, ...t }) => ({ ...t, createTime: new Date(create_time).toISOString() })),
        orders: orders.rows.map((o) => ({
          id: o.id,
          orderNo: o.order_no,
          status: o.status,
          totalAmount: o.total_amount,
          createTime: new Date(o.create_time).toISOString(),
        })),
        pins: pins?.pins ?? [],
      };
    },
  );

  typedRoute(
    app,
    centre,
    {
      method: 'PUT',
      url: '/user/pins',
      signedIn: 'any',
      rateLimit: { max: 60, timeWindow: 60_000 },
      body: pinsSchema,
      response: pinsSchema,
      summary: 'Saves the shortcuts the user pinned to the workbench (route names, in order)',
      inTenant: true,
    },
    async (ctx, { body: { pins } }) => {
      await ctx.tx
        .insert(userPins)
        .values({ tenantId: ctx.caller.tenantId, accountRef: ctx.caller.accountRef, pins })
        .onConflictDoUpdate({ target: [userPins.tenantId, userPins.accountRef], set: { pins, updateTime: new Date() } });
      return { pins };
    },
  );

  typedRoute(
    app,
    centre,
    {
      method: 'GET',
      url: '/user/activity',
      signedIn: 'any',
      response: userActivitySchema,
      summary: "The user's own recent operations and sign-ins in this tenant",
      inTenant: true,
    },
    async (ctx) => {
      const operations = await ctx.tx
        .select({
          id: operLogs.id,
          title: operLogs.module,
          action: operLogs.action,
          target: sql<string | null>`coalesce(${operLogs.targetName}, ${operLogs.target})`,
          result: operLogs.result,
          time: operLogs.createTime,
        })
        .from(operLogs)
        .where(eq(operLogs.accountRef, ctx.caller.accountRef))
        .orderBy(desc(operLogs.createTime), desc(operLogs.id))
        .limit(10);
      const logins = await ctx.tx
        .select({
          id: loginLogs.id,
          ip: loginLogs.ip,
          browser: loginLogs.userAgent,
          result: loginLogs.result,
          time: loginLogs.createTime,
        })
        .from(loginLogs)
        .where(and(eq(loginLogs.accountRef, ctx.caller.accountRef), inArray(loginLogs.result, ['success', 'failure', 'locked'])))
        .orderBy(desc(loginLogs.createTime), desc(loginLogs.id))
        .limit(10);
      return {
        operations: operations.map(({ result, ...o }) => ({ ...isoDates(o), ok: result === 'success' })),
        logins: logins.map(({ result, browser, ...l }) => ({
          ...isoDates(l),
          browser: browser?.slice(0, 120) ?? null,
          ok: result === 'success',
        })),
      };
    },
  );

  typedRoute(
    app,
    centre,
    {
      method: 'GET',
      url: '/user/certification',
      signedIn: 'any',
      response: z.array(certificationSchema),
      summary: "The user's own enterprise certification requests in this tenant, newest first",
      inTenant: true,
    },
    async (ctx) => {
      const rows = await ctx.tx
        .select()
        .from(userCertifications)
        .where(eq(userCertifications.accountRef, ctx.caller.accountRef))
        .orderBy(desc(userCertifications.createTime), desc(userCertifications.id))
        .limit(50);
      return rows.map(certificationOf);
    },
  );

  typedRoute(
    app,
    centre,
    {
      method: 'POST',
      url: '/user/certification',
      signedIn: 'any',
      rateLimit: { max: 20, timeWindow: 10 * 60_000 },
      body: certificationInputSchema,
      response: certificationSchema,
      summary: 'Submits an enterprise certification request (auditing); 409 while another one is under review',
      inTenant: true,
    },
    async (ctx, { body }) => {
      const mine = eq(userCertifications.accountRef, ctx.caller.accountRef);
      // one request under review at a time: the advisory lock keeps two tabs from both passing the check
      await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext('certification'), ${ctx.caller.accountRef}::int)`);
      const [pending] = await ctx.tx
        .select({ n: count() })
        .from(userCertifications)
        .where(and(mine, eq(userCertifications.status, 'auditing')));
      if ((pending?.n ?? 0) > 0) throw refused('status', 'pending', 'certification.pending');
      const [created] = await ctx.tx
        .insert(userCertifications)
        .values({ tenantId: ctx.caller.tenantId, accountRef: ctx.caller.accountRef, ...body })
        .returning();
      return certificationOf(created as typeof userCertifications.$inferSelect);
    },
  );

  typedRoute(
    app,
    centre,
    {
      method: 'PUT',
      url: '/user/certification/:id/withdraw',
      signedIn: 'any',
      params: idParam,
      response: certificationSchema,
      summary: 'Withdraws one of the user’s own requests still under review; 404 for anyone else’s, 409 once decided',
      inTenant: true,
    },
    async (ctx, { params }) => {
      const mine = and(eq(userCertifications.id, params.id), eq(userCertifications.accountRef, ctx.caller.accountRef));
      const [moved] = await ctx.tx
        .update(userCertifications)
        .set({ status: 'withdrawn', updateTime: new Date() })
        .where(and(mine, eq(userCertifications.status, 'auditing')))
        .returning();
      if (moved) return certificationOf(moved);
      const [exists] = await ctx.tx.select({ id: userCertifications.id }).from(userCertifications).where(mine);
      if (!exists) throw notFound();
      throw refused('status', 'transition', 'certification.notPending');
    },
  );
  // the account's own live sessions, in every tenant: sessions are outside row-level security, so the
  // account filter is the whole guard and every statement below carries it
  const liveOf = (accountRef: number) =>
    and(eq(sessions.accountId, accountRef), isNull(sessions.endedAt), gt(sessions.expiresAt, new Date()));

  typedRoute(
    app,
    centre,
    {
      method: 'GET',
      url: '/user/sessions',
      signedIn: 'any',
      response: z.array(ownSessionSchema),
      summary: "The signed-in account's live sessions (every tenant, this one marked current)",
    },
    async (_input, request) => {
      const auth = request.auth as NonNullable<typeof request.auth>;
      const rows = await app.database.db
        .select({
          id: sessions.id,
          tenantCode: tenants.code,
          tenantName: tenants.name,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
          deviceType: sessions.deviceType,
          createTime: sessions.createTime,
          lastSeenAt: sessions.lastSeenAt,
        })
        .from(sessions)
        .innerJoin(tenants, eq(tenants.id, sessions.tenantRef))
        .where(liveOf(auth.accountRef))
        .orderBy(desc(sessions.lastSeenAt))
        .limit(100);
      return rows.map((row) => ({ ...isoDates(row), current: row.id === auth.sessionId }));
    },
  );

  // the sign-ins of the account are managed in a session, never with an API token
  typedRoute(
    app,
    centre,
    {
      method: 'DELETE',
      url: '/user/sessions/:id',
      signedIn: 'session',
      params: idParam,
      response: z.null(),
      summary: 'Signs out one of the account’s own other sessions; 404 for anyone else’s or an ended one, 409 for this one (use logout)',
    },
    async ({ params }, request) => {
      const auth = request.auth as NonNullable<typeof request.auth>;
      if (params.id === auth.sessionId) throw refused('id', 'current', 'session.current');
      const [mine] = await app.database.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, params.id), liveOf(auth.accountRef)));
      if (!mine) throw notFound();
      await endSessions(app, { reason: 'logout', sessionIds: [mine.id], accountRef: auth.accountRef });
      return null;
    },
  );

  // the sign-ins of the account are managed in a session, never with an API token
  typedRoute(
    app,
    centre,
    {
      method: 'DELETE',
      url: '/user/sessions',
      signedIn: 'session',
      response: z.object({ ended: z.number().int() }),
      summary: 'Signs out every other session of the account, in every tenant; answers how many ended',
    },
    async (_input, request) => {
      const auth = request.auth as NonNullable<typeof request.auth>;
      const ended = await endSessions(app, { reason: 'logout', accountRef: auth.accountRef, exceptSessionId: auth.sessionId });
      return { ended: ended.length };
    },
  );
}

/** The basic profile's approvals, the user centre, and the review of certification requests. */
export async function centreRoutes(app: FastifyInstance) {
  approvalRoutes(app);
  certificationReviewRoutes(app);
  userCentreRoutes(app);
}
