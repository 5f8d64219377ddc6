import { createHash, randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS, isPlatformPermission } from '@atrium/contracts';
import { and, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import { type Database, type RawResult, withTenantRead } from '../../db/client';
import { apiTokens, sessions } from '../../db/schema';
import type { AppEvents, SessionEndReason } from '../../events';
import type { AuthContext, DataScope, UserType } from '../../plugins/external/access';

/** Idle limit: a session unused this long is over (11000). */
export const IDLE_MS = 2 * 60 * 60 * 1000;
/** Absolute limit of a session, and of one signed in with "remember". */
export const ABSOLUTE_MS = 24 * 60 * 60 * 1000;
export const REMEMBER_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_seen_at` is written at most this often per session (so idle time is exact to this much). */
const TOUCH_MS = 60 * 1000;
/**
 * In-process caches. A session row is trusted for SESSION_TTL_MS and the roles/permissions of an
 * account in a tenant for ACCESS_TTL_MS. Changes made through this process invalidate them at once;
 * another instance sees them after at most these times (or at once when a Redis backplane relays the
 * invalidation).
 */
export const SESSION_TTL_MS = 5_000;
export const ACCESS_TTL_MS = 30_000;
const CACHE_LIMIT = 10_000;

export type ResolveFailure = { ok: false; code: 11000 | 1302; reason: string };
export type ResolveResult = { ok: true; auth: AuthContext } | ResolveFailure;

type SessionRow = {
  id: number;
  accountRef: number;
  tenantId: number;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endReason: string | null;
  activeRole: string | null;
};

/** What one role the user holds grants in the tenant. */
type RoleGrant = { permissions: ReadonlySet<string>; dataScope: DataScope };
/** An account's access in a tenant with all its roles; each role's own grant, for a session acting as one. */
type Access = Omit<AuthContext, 'sessionId' | 'activeRole'> & { grants: ReadonlyMap<string, RoleGrant> };
type AccessResult = { ok: true; access: Access } | { ok: false; reason: SessionEndReason };

/** What invalidation covers: one account, one tenant, one account in one tenant, or (empty) everything. */
export type InvalidateScope = { accountRef?: number; tenantId?: number };

/** Relays invalidations and ended sessions to other server instances (Redis pub/sub when configured). */
export type Backplane = {
  publish(message: BackplaneMessage): void;
};
export type BackplaneMessage =
  | { kind: 'invalidate'; scope: InvalidateScope }
  | { kind: 'ended'; sessionIds: number[]; accountRef: number; reason: SessionEndReason }
  /** a write in the tenant: its kept list totals (or only one resource's) are stale */
  | { kind: 'totals'; tenantId: number; resource?: string };

export type EndSessionsInput = {
  reason: SessionEndReason;
  sessionIds?: number[];
  accountRef?: number;
  tenantId?: number;
  /** keep this one (e.g. the caller's own session after changing the password) */
  exceptSessionId?: number;
};

export type CreateSessionInput = {
  accountRef: number;
  tenantId: number;
  remember?: boolean;
  deviceId?: string | null;
  deviceType?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** the sign-in proved a second factor at this time (step-up reads it) */
  mfaAt?: Date;
  /** how the session was signed in when not by a password: 'sso' (the tenant's OpenID provider) */
  method?: 'sso';
};

const rowsOf = <T>(result: unknown) => (result as RawResult<T>).rows;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

// widest first: all, custom departments, department and below, own department, self
const SCOPE_RANK: DataScope[] = ['1', '2', '4', '3', '5'];

/**
 * Sessions: creating them, resolving a token into an AuthContext, ending them, and the caches in
 * between. One per app (`app.sessions`); the MQTT broker resolves tokens through it too.
 */
export class SessionService {
  private readonly sessionCache = new Map<string, { row: SessionRow; at: number }>();
  private readonly accessCache = new Map<string, { result: AccessResult; at: number; views?: Map<string, string> }>();
  backplane: Backplane | null = null;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly events: AppEvents,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * A new session: its token (shown once) and the row to write, which keeps only the token's hash.
   * `create` writes it alone; a sign-in writes it in one statement with its device and log entry.
   */
  newSession(input: CreateSessionInput): { token: string; row: typeof sessions.$inferInsert } {
    const token = newToken();
    const now = this.clock.now();
    return {
      token,
      row: {
        tokenHash: hashToken(token),
        accountId: input.accountRef,
        tenantRef: input.tenantId,
        remember: input.remember ?? false,
        deviceId: input.deviceId?.slice(0, 64) ?? null,
        deviceType: input.deviceType?.slice(0, 20) ?? null,
        ip: input.ip?.slice(0, 64) ?? null,
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        createTime: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + (input.remember ? REMEMBER_MS : ABSOLUTE_MS)),
        // only a sign-in with a second factor has the column: the password-only statement stays as it was
        ...(input.mfaAt ? { mfaAt: input.mfaAt } : {}),
        ...(input.method ? { method: input.method } : {}),
      },
    };
  }

  /** Starts a session; answers the token (shown once, stored only as its hash). */
  async create(input: CreateSessionInput): Promise<{ token: string; sessionId: number }> {
    const { token, row } = this.newSession(input);
    const [written] = await this.database.db.insert(sessions).values(row).returning({ id: sessions.id });
    return { token, sessionId: (written as { id: number }).id };
  }

  /** Token → who is asking; 11000 for a missing, unknown or expired token, 1302 for an ended session. */
  async resolve(token: string | null | undefined): Promise<ResolveResult> {
    if (!token || token.length > 200) return { ok: false, code: 11000, reason: 'missing' };
    const tokenHash = hashToken(token);
    const row = await this.sessionRow(tokenHash);
    if (!row) return { ok: false, code: 11000, reason: 'unknown' };
    // the reason travels to the client, which tells the user why they are signed out
    if (row.endedAt) return { ok: false, code: 1302, reason: row.endReason ?? 'ended' };
    const now = this.clock.now().getTime();
    if (now >= row.expiresAt.getTime()) return { ok: false, code: 11000, reason: 'expired' };
    if (now - row.lastSeenAt.getTime() >= IDLE_MS) return { ok: false, code: 11000, reason: 'idle' };
    const access = await this.access(row.accountRef, row.tenantId);
    if (!access.ok) {
      await this.end({ sessionIds: [row.id], reason: access.reason });
      return { ok: false, code: 1302, reason: access.reason };
    }
    if (now - row.lastSeenAt.getTime() >= TOUCH_MS) {
      const seen = new Date(now);
      row.lastSeenAt = seen;
      await this.database.db.update(sessions).set({ lastSeenAt: seen }).where(eq(sessions.id, row.id));
    }
    return { ok: true, auth: { sessionId: row.id, ...actingAs(access.access, row.activeRole) } };
  }

  /**
   * "Switch roles": the session acts as one role the user holds in its tenant (its permissions, data
   * scope and menu alone), or with `null` as all of them again. Only ever narrows what the account may
   * do here: a code the user does not hold (in this tenant, enabled) is refused, and a super admin, who
   * may do everything anyway, does not switch. Answers the role now in effect, or null when refused.
   */
  async actAs(auth: AuthContext, role: string | null): Promise<{ role: string } | null> {
    const access = await this.access(auth.accountRef, auth.tenantId, { fresh: true });
    if (!access.ok || access.access.superAdmin) return null;
    if (role !== null && (access.access.grants.size < 2 || !access.access.grants.has(role))) return null;
    await this.database.db.update(sessions).set({ activeRole: role }).where(eq(sessions.id, auth.sessionId));
    for (const [hash, entry] of this.sessionCache) if (entry.row.id === auth.sessionId) this.sessionCache.delete(hash);
    return { role: actingAs(access.access, role).role };
  }

  /**
   * Ends sessions (by ids, account, tenant or both) and announces `session.ended` per account.
   * Answers the ids it ended; sessions already over are left as they were.
   */
  async end(input: EndSessionsInput): Promise<number[]> {
    const where: SQL[] = [isNull(sessions.endedAt)];
    if (input.sessionIds) {
      if (input.sessionIds.length === 0) return [];
      where.push(inArray(sessions.id, input.sessionIds));
    }
    if (input.accountRef !== undefined) where.push(eq(sessions.accountId, input.accountRef));
    if (input.tenantId !== undefined) where.push(eq(sessions.tenantRef, input.tenantId));
    if (input.exceptSessionId !== undefined) where.push(ne(sessions.id, input.exceptSessionId));
    if (!input.sessionIds && input.accountRef === undefined && input.tenantId === undefined) {
      throw new Error('endSessions needs sessionIds, accountRef or tenantId');
    }
    const ended = await this.database.db
      .update(sessions)
      .set({ endedAt: this.clock.now(), endReason: input.reason })
      .where(and(...where))
      .returning({ id: sessions.id, accountRef: sessions.accountId });
    // a user disabled or removed here loses their API tokens of this tenant for good, as their sessions
    if (input.accountRef !== undefined && (input.reason === 'user_disabled' || input.reason === 'removed')) {
      const scope = [eq(apiTokens.accountId, input.accountRef), isNull(apiTokens.revokedAt)];
      if (input.tenantId !== undefined) scope.push(eq(apiTokens.tenantRef, input.tenantId));
      await this.database.db
        .update(apiTokens)
        .set({ revokedAt: this.clock.now() })
        .where(and(...scope));
    }
    // disabled, removed, tenant closed, password changed: no cached access may outlive the sessions
    if (input.accountRef !== undefined || input.tenantId !== undefined) {
      this.invalidate({ accountRef: input.accountRef, tenantId: input.tenantId });
    }
    const byAccount = new Map<number, number[]>();
    for (const { id, accountRef } of ended) byAccount.set(accountRef, [...(byAccount.get(accountRef) ?? []), id]);
    for (const [accountRef, sessionIds] of byAccount) this.ended(sessionIds, accountRef, input.reason, true);
    return ended.map((e) => e.id);
  }

  /** Drops cached access for a scope; `{}` drops everything. Call after changing roles, menus, users or tenants. */
  invalidate(scope: InvalidateScope = {}, fromPeer = false): void {
    for (const key of this.accessCache.keys()) {
      const [account, tenant] = key.split(':').map(Number);
      if (scope.accountRef !== undefined && scope.accountRef !== account) continue;
      if (scope.tenantId !== undefined && scope.tenantId !== tenant) continue;
      this.accessCache.delete(key);
    }
    if (!fromPeer) this.backplane?.publish({ kind: 'invalidate', scope });
  }

  /** A peer instance ended sessions: forget them here and tell local listeners (the broker). */
  ended(sessionIds: number[], accountRef: number, reason: SessionEndReason, local = false): void {
    const ids = new Set(sessionIds);
    for (const [hash, entry] of this.sessionCache) if (ids.has(entry.row.id)) this.sessionCache.delete(hash);
    try {
      this.events.emit('session.ended', { sessionIds, accountRef, reason });
    } catch (error) {
      this.log.error({ err: error }, 'a session.ended listener failed');
    }
    if (local) this.backplane?.publish({ kind: 'ended', sessionIds, accountRef, reason });
  }

  /**
   * A rendered answer that depends only on the account, the tenant and what `invalidate` covers (user
   * info, the menu), kept beside the cached access and dropped with it: it lives at most ACCESS_TTL_MS
   * and goes at once when roles, grants, menus, the user or the tenant change.
   */
  async view(
    auth: { accountRef: number; tenantId: number; activeRole: string | null; tokenId?: number },
    view: string,
    render: () => Promise<string>,
  ): Promise<string> {
    // a token's permissions are its own intersection: rendered for it alone, never kept
    if (auth.tokenId !== undefined) return render();
    // a session acting as one role sees that role's rendering
    const name = auth.activeRole === null ? view : `${view}:${auth.activeRole}`;
    const entry = this.accessCache.get(`${auth.accountRef}:${auth.tenantId}`);
    const hit = entry?.views?.get(name);
    if (hit !== undefined) return hit;
    const rendered = await render();
    // kept only if the access it was rendered under is still the current one
    if (entry && this.accessCache.get(`${auth.accountRef}:${auth.tenantId}`) === entry) {
      entry.views ??= new Map();
      entry.views.set(name, rendered);
    }
    return rendered;
  }

  /**
   * Resolved access of an account in a tenant (cached). Sign-in and tenant switching ask with `fresh`:
   * a user disabled a moment ago (perhaps on another instance) is refused at once, not after the TTL.
   */
  async access(accountRef: number, tenantId: number, options: { fresh?: boolean } = {}): Promise<AccessResult> {
    const key = `${accountRef}:${tenantId}`;
    const cached = this.accessCache.get(key);
    const now = Date.now();
    if (cached && !options.fresh && now - cached.at < ACCESS_TTL_MS) return cached.result;
    const result = await this.loadAccess(accountRef, tenantId);
    remember(this.accessCache, key, { result, at: now });
    return result;
  }

  private async sessionRow(tokenHash: string): Promise<SessionRow | null> {
    const cached = this.sessionCache.get(tokenHash);
    const now = Date.now();
    if (cached && now - cached.at < SESSION_TTL_MS) return cached.row;
    const [row] = await this.database.db
      .select({
        id: sessions.id,
        accountRef: sessions.accountId,
        tenantId: sessions.tenantRef,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        endedAt: sessions.endedAt,
        endReason: sessions.endReason,
        activeRole: sessions.activeRole,
      })
      .from(sessions)
      .where(eq(sessions.tokenHash, tokenHash));
    if (!row) {
      this.sessionCache.delete(tokenHash);
      return null;
    }
    remember(this.sessionCache, tokenHash, { row, at: now });
    return row;
  }

  /**
   * The account, the tenant and the membership with its enabled roles and their permissions, in one
   * statement on a read connection set to the tenant (row-level security scopes the membership rows).
   */
  private async loadAccess(accountRef: number, tenantId: number): Promise<AccessResult> {
    const [row] = await withTenantRead(this.database.db, tenantId, async (tx) =>
      rowsOf<{
        account_id: string;
        super_admin: boolean;
        client_key: string;
        tenant_code: string;
        tenant_status: string;
        expire_time: Date | string | null;
        id: number | null;
        user_type: UserType | null;
        dept_id: number | null;
        status: string | null;
        roles: HeldRoleRow[] | string;
      }>(
        await tx.execute(sql`
          select a.account_id, a.super_admin, a.client_key, t.code as tenant_code, t.status as tenant_status, t.expire_time,
            tu.id::int as id, tu.user_type, tu.dept_id::int as dept_id, tu.status,
            coalesce((select json_agg(json_build_object('code', r.code, 'name', r.name, 'scope', r.data_scope, 'permissions',
                               coalesce((select json_agg(distinct m.permission)
                                           from role_menus rm
                                           join menus m on m.id = rm.menu_id
                                          where rm.tenant_id = r.tenant_id and rm.role_id = r.id
                                            and m.status = '0' and m.permission is not null), '[]'::json))
                               order by r.order_num, r.id)
                        from user_roles ur
                        join roles r on r.tenant_id = ur.tenant_id and r.id = ur.role_id
                       where ur.tenant_id = tu.tenant_id and ur.user_id = tu.id and r.status = '0'), '[]'::json) as roles
            from accounts a
            join tenants t on t.id = ${tenantId}
            left join tenant_users tu on tu.tenant_id = t.id and tu.account_ref = a.id
           where a.id = ${accountRef}`),
      ),
    );
    if (!row) return { ok: false, reason: 'removed' };
    const head = { accountId: row.account_id, superAdmin: row.super_admin, clientKey: row.client_key, tenantCode: row.tenant_code };
    const expireTime = row.expire_time === null ? null : new Date(row.expire_time);
    if (row.tenant_status !== '0' || (expireTime && expireTime.getTime() <= this.clock.now().getTime())) {
      return { ok: false, reason: 'tenant_disabled' };
    }
    const member =
      row.id === null
        ? null
        : {
            id: row.id,
            user_type: row.user_type as UserType,
            dept_id: row.dept_id,
            status: row.status ?? '',
            roles: parseJson<HeldRoleRow[]>(row.roles),
          };
    const base = { accountRef, accountId: head.accountId, tenantId, tenantCode: head.tenantCode, clientKey: head.clientKey };
    const held = member?.roles ?? [];
    const heldRoles = held.map((r) => ({ code: r.code, name: r.name }));
    if (head.superAdmin) {
      const roles = held.map((r) => r.code);
      return {
        ok: true,
        access: {
          ...base,
          userId: member?.id ?? null,
          superAdmin: true,
          userType: '00',
          roles,
          heldRoles,
          role: roles[0] ?? 'admin',
          permissions: new Set([ALL_PERMISSIONS]),
          dataScope: '1',
          deptId: member?.dept_id ?? null,
          grants: new Map(),
        },
      };
    }
    if (!member) return { ok: false, reason: 'removed' };
    if (member.status !== '0') return { ok: false, reason: 'user_disabled' };
    // a platform-only entity's permissions grant nothing in a tenant (its routes want the super admin)
    const grants = new Map<string, RoleGrant>(
      held.map((r) => [
        r.code,
        { permissions: new Set(parseJson<string[]>(r.permissions).filter((p) => !isPlatformPermission(p))), dataScope: r.scope },
      ]),
    );
    const scopes = new Set(held.map((r) => r.scope));
    return {
      ok: true,
      access: {
        ...base,
        userId: member.id,
        superAdmin: false,
        userType: member.user_type,
        roles: held.map((r) => r.code),
        heldRoles,
        role: held[0]?.code ?? '',
        permissions: new Set([...grants.values()].flatMap((g) => [...g.permissions])),
        dataScope: SCOPE_RANK.find((s) => scopes.has(s)) ?? '5',
        deptId: member.dept_id,
        grants,
      },
    };
  }
}

type HeldRoleRow = { code: string; name: string; scope: DataScope; permissions: string[] | string };

/**
 * The session's view of an account's access: all its roles, or (after "switch roles") the one role it
 * acts as, when the user still holds it; a role taken away meanwhile falls back to all the others.
 */
function actingAs(access: Access, activeRole: string | null): Omit<AuthContext, 'sessionId'> {
  const { grants, ...all } = access;
  const grant = activeRole === null ? undefined : grants.get(activeRole);
  if (!grant || activeRole === null) return { ...all, activeRole: null };
  return { ...all, roles: [activeRole], role: activeRole, permissions: grant.permissions, dataScope: grant.dataScope, activeRole };
}

// PGlite and node-postgres both parse json columns, but be safe with a driver that hands back text
const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

function remember<V>(map: Map<string, V>, key: string, value: V) {
  if (map.size >= CACHE_LIMIT) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  map.delete(key);
  map.set(key, value);
}

type HasSessions = Pick<FastifyInstance, 'sessions'>;

/** Token → AuthContext or a typed failure (11000 unknown/expired, 1302 ended). The MQTT broker authenticates with it. */
export function resolveToken(app: HasSessions, token: string | null | undefined): Promise<ResolveResult> {
  return app.sessions.resolve(token);
}

/** Ends sessions and emits `session.ended`; answers the ended session ids. */
export function endSessions(app: HasSessions, input: EndSessionsInput): Promise<number[]> {
  return app.sessions.end(input);
}

/**
 * Call after changing roles, role grants, menus, a user's membership or a tenant: drops the cached
 * access of that scope (`{ tenantId }` after a role or grant change, `{ accountRef, tenantId }` after a
 * user change, `{}` after a menu change). Disabling a user or tenant should use `endSessions` as well.
 */
export function invalidateAccess(app: HasSessions, scope: InvalidateScope = {}): void {
  app.sessions.invalidate(scope);
}
