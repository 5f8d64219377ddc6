import { ALL_PERMISSIONS } from '@atrium/contracts';
import type { FastifyRequest } from 'fastify';

/** Data scope of the caller's roles: '1' all, '2' custom departments, '3' own department, '4' department and below, '5' self. */
export type DataScope = '1' | '2' | '3' | '4' | '5';
export type UserType = '00' | '01' | '02';

/**
 * Who is asking, resolved from the session token for every authenticated request (`request.auth`).
 * Cached per account and tenant for a few seconds; see `invalidateAccess` in modules/auth/session.service.
 */
export type AuthContext = {
  /** sessions.id; 0 for a request made with a personal API token (it has no session) */
  sessionId: number;
  /** api_tokens.id when the request came with a personal API token (`atr_…`); absent in a session */
  tokenId?: number;
  /** accounts.id */
  accountRef: number;
  /** the user number the account signs in with */
  accountId: string;
  tenantId: number;
  tenantCode: string;
  /** tenant_users.id of the account in this tenant; null for a super admin without a membership row here */
  userId: number | null;
  superAdmin: boolean;
  userType: UserType;
  /** codes of the roles in effect: the enabled roles held in this tenant, primary first, or the one the session acts as */
  roles: string[];
  /** the primary role's code, or the one the session acts as ('' when the user holds no role); checked against route meta.roles */
  role: string;
  /** every enabled role held in this tenant, primary first, with its name: what "switch roles" offers */
  heldRoles: { code: string; name: string }[];
  /** the role chosen with "switch roles"; null: all the roles held are in effect */
  activeRole: string | null;
  /** permission strings granted in this tenant; a super admin holds '*:*:*' */
  permissions: ReadonlySet<string>;
  dataScope: DataScope;
  deptId: number | null;
  /** the account's realtime topic key: atrium-web/+/{clientKey} */
  clientKey: string;
};

/**
 * The one permission check: server preHandlers, the menu and the buttons all ask this.
 * A super admin, or anyone holding '*:*:*', may do everything.
 */
export function can(auth: Pick<AuthContext, 'superAdmin' | 'permissions'> | null | undefined, permission: string): boolean {
  if (!auth) return false;
  return auth.superAdmin || auth.permissions.has(ALL_PERMISSIONS) || auth.permissions.has(permission);
}

/** The bearer token of a request, if any. */
export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}
