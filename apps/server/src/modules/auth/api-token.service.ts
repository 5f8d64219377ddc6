import {
  ALL_PERMISSIONS,
  API_TOKEN_MAX_DAYS,
  API_TOKEN_PREFIX,
  type ApiToken,
  allPermissions,
  type CreateApiTokenInput,
  isPlatformPermission,
} from '@atrium/contracts';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Clock } from '../../clock';
import { invalidField } from '../../crud/conflict';
import type { Database, Tx } from '../../db/client';
import { apiTokens } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import type { AuthContext } from '../../plugins/external/access';
import { hashToken, newToken, type ResolveResult, type SessionService } from './session.service';

const DAY_MS = 24 * 60 * 60 * 1000;
/** `last_used_at` is written at most this often per token. */
export const TOKEN_TOUCH_MS = 60 * 1000;

const known = new Set<string>(allPermissions);

/** 403 for what only a signed-in session may do (ADR 047); with `field`, naming the field it would change. */
export const tokenRefused = (field?: string) =>
  new AppError('forbidden', {
    reason: 'apiToken.sessionOnly',
    data: { reason: 'api_token' },
    ...(field ? { fields: [{ field, rule: 'token', message: 'token.identifier' }] } : {}),
  });

/**
 * Whether the caller may put `permission` into a token: one they hold here (a holder of everything
 * picks from the catalogue), never "everything" itself nor a platform permission (a token never acts
 * as the platform's super admin).
 */
export function grantable(auth: Pick<AuthContext, 'superAdmin' | 'permissions'>, permission: string): boolean {
  if (permission === ALL_PERMISSIONS || isPlatformPermission(permission)) return false;
  if (auth.permissions.has(permission)) return true;
  return (auth.superAdmin || auth.permissions.has(ALL_PERMISSIONS)) && known.has(permission);
}

const toApiToken = (row: typeof apiTokens.$inferSelect): ApiToken => ({
  id: row.id,
  name: row.name,
  permissions: row.permissions,
  expiresAt: row.expiresAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  createTime: row.createTime.toISOString(),
});

type Owner = { accountRef: number; tenantId: number };
const ownedBy = (owner: Owner) => and(eq(apiTokens.accountId, owner.accountRef), eq(apiTokens.tenantRef, owner.tenantId));

/**
 * Personal API tokens (ADR 047): made by a signed-in user, found by their SHA-256 hash on every request
 * (never cached, so a revocation holds at the next request on every instance), acting with the token's
 * permissions intersected with the owner's current ones.
 */
export class ApiTokenService {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
  ) {}

  /** Any bearer: a personal API token (`atr_…`) here, anything else as a session's token. */
  bearer(token: string | null | undefined): Promise<ResolveResult> {
    return token?.startsWith(API_TOKEN_PREFIX) ? this.resolve(token) : this.sessions.resolve(token);
  }

  /** A new token for the caller in the caller's tenant; answers it once (only its hash is kept). */
  async create(auth: AuthContext, input: CreateApiTokenInput): Promise<{ id: number; token: string }> {
    const refused = input.permissions.find((p) => !grantable(auth, p));
    if (refused !== undefined) throw invalidField('permissions', 'notHeld', 'token.permissionNotHeld', { permission: refused });
    const now = this.clock.now().getTime();
    const expiresAt = new Date(input.expiresAt);
    if (expiresAt.getTime() <= now) throw invalidField('expiresAt', 'future', 'token.expiryPast');
    if (expiresAt.getTime() > now + API_TOKEN_MAX_DAYS * DAY_MS) throw invalidField('expiresAt', 'max', 'token.expiryTooFar');
    const token = `${API_TOKEN_PREFIX}${newToken()}`;
    const [row] = await this.database.db
      .insert(apiTokens)
      .values({
        tokenHash: hashToken(token),
        accountId: auth.accountRef,
        tenantRef: auth.tenantId,
        name: input.name,
        permissions: [...new Set(input.permissions)].sort(),
        expiresAt,
        createTime: new Date(now),
      })
      .returning({ id: apiTokens.id });
    return { id: (row as { id: number }).id, token };
  }

  /** The tokens of an account in a tenant that are not revoked (expired ones too), newest first. */
  async list(owner: Owner, tx: Tx | Database['db'] = this.database.db): Promise<ApiToken[]> {
    const rows = await tx
      .select()
      .from(apiTokens)
      .where(and(ownedBy(owner), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.id));
    return rows.map(toApiToken);
  }

  /** Revokes one token of the owner (404 for another's or one already revoked); answers its name. */
  async revoke(owner: Owner, id: number, by: number, tx: Tx | Database['db'] = this.database.db): Promise<{ id: number; name: string }> {
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: this.clock.now(), revokedBy: by })
      .where(and(ownedBy(owner), eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id, name: apiTokens.name });
    if (!row) throw notFound();
    return row;
  }

  /**
   * `atr_…` → who is asking, as a session's token resolves: 11000 for an unknown or expired token, 1302
   * for a revoked one or an owner who lost access (disabled, removed, tenant closed). The row is read on
   * every request; the owner's access comes from the sessions' cache, which role, user and tenant changes
   * invalidate on every instance.
   */
  async resolve(token: string): Promise<ResolveResult> {
    if (token.length > 200) return { ok: false, code: 11000, reason: 'unknown' };
    const [row] = await this.database.db
      .select({
        id: apiTokens.id,
        accountRef: apiTokens.accountId,
        tenantId: apiTokens.tenantRef,
        permissions: apiTokens.permissions,
        expiresAt: apiTokens.expiresAt,
        lastUsedAt: apiTokens.lastUsedAt,
        revokedAt: apiTokens.revokedAt,
      })
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(token)));
    if (!row) return { ok: false, code: 11000, reason: 'unknown' };
    if (row.revokedAt) return { ok: false, code: 1302, reason: 'revoked' };
    const now = this.clock.now();
    if (now.getTime() >= row.expiresAt.getTime()) return { ok: false, code: 11000, reason: 'expired' };
    const access = await this.sessions.access(row.accountRef, row.tenantId);
    if (!access.ok) return { ok: false, code: 1302, reason: access.reason };
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOKEN_TOUCH_MS) {
      await this.database.db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
    }
    const { grants: _grants, ...held } = access.access;
    // the token's permissions that the owner still holds: never more than either
    const permissions = new Set(row.permissions.filter((p) => grantable(held, p)));
    return {
      ok: true,
      auth: { ...held, superAdmin: false, permissions, activeRole: null, sessionId: 0, tokenId: row.id },
    };
  }
}
