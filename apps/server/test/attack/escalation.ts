import { ACCOUNT_IDENTIFIER_FIELDS, type AccountIdentifierUse } from '@atrium/contracts';
import type { Mail } from '../../src/modules/auth/mailer';
import type { RegisteredRoute } from '../../src/plugins/external/route-registry';
import type { buildTestApp } from '../helper';
import { type Caller, signIn } from '../system/api';
import { apiRoutes, fillParams } from './surface';

type TestContext = Awaited<ReturnType<typeof buildTestApp>>;
type MenuNode = { id: number; permission: string | null; children: MenuNode[] };
const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const PASSWORD = 'Kx9!mountain-ledger';

/** Body fields that change who may do or see what: a route taking one must have an escalation probe. */
export const privilegedFields = ['roleIds', 'menuIds', 'dataScope', 'deptIds', 'deptId', 'parentId', 'userType'] as const;

function bodyKeys(route: RegisteredRoute): string[] {
  const body = (route.schema as { body?: { shape?: Record<string, unknown> } } | undefined)?.body;
  return body?.shape ? Object.keys(body.shape) : [];
}

/** Write routes whose body carries a privileged field (tenants are the super admin's alone and left out). */
export function privilegedRoutes(routes: RegisteredRoute[]): string[] {
  return (
    apiRoutes(routes)
      // system routes only: elsewhere `parentId` is a tree of the entity's own (ERP categories), not a department
      .filter((r) => r.method !== 'GET' && r.url.startsWith('/api/system/') && !r.url.startsWith('/api/system/tenant'))
      .filter((r) => bodyKeys(r).some((k) => (privilegedFields as readonly string[]).includes(k)))
      .map((r) => `${r.method} ${r.url}`)
  );
}

/** What a probe works with: the super admin, a sandbox department inside the caller's scope, one outside it. */
export type Arena = {
  ctx: TestContext;
  admin: Caller;
  adminRoleId: number;
  sandbox: number;
  outside: number;
  /** A signed-in user holding exactly these permissions (and their menus) with this data scope, placed in the sandbox. */
  limited(permissions: string[], dataScope?: string): Promise<{ caller: Caller; userId: number; roleId: number; accountId: string }>;
  /** A plain user in the sandbox, for the limited caller to act on. */
  colleague(): Promise<{ id: number; [k: string]: unknown }>;
};

let serial = 0;

export async function arena(ctx: TestContext): Promise<Arena> {
  const admin = await signIn(ctx, 'admin', 'Admin@123456');
  const menus = flatten((await admin.get('/api/system/role/menuTree')).body.data as MenuNode[]);
  const menuId = (permission: string) => {
    const hit = menus.find((m) => m.permission === permission);
    if (!hit) throw new Error(`no menu carries ${permission}`);
    return hit.id;
  };
  const adminRoleId = (await admin.get('/api/system/role?code=admin')).body.data.list.find((r: { code: string }) => r.code === 'admin')
    .id as number;
  const sandbox = (await admin.post('/api/system/dept', { name: `Sandbox ${++serial}` })).body.data.id as number;
  const outside = (await admin.post('/api/system/dept', { name: `Outside ${++serial}` })).body.data.id as number;
  const newUser = async (roleIds: number[]) => {
    const accountId = `probe.${Date.now().toString(36)}.${++serial}`;
    const created = await admin.post('/api/system/user/info', { accountId, name: 'Probe', password: PASSWORD, deptId: sandbox, roleIds });
    if (created.status !== 200) throw new Error(`creating ${accountId}: ${JSON.stringify(created.body)}`);
    return { accountId, user: created.body.data as { id: number; [k: string]: unknown } };
  };
  return {
    ctx,
    admin,
    adminRoleId,
    sandbox,
    outside,
    async limited(permissions, dataScope = '4') {
      const role = await admin.post('/api/system/role', {
        name: `Probe ${++serial}`,
        code: `probe_${serial}`,
        dataScope,
        menuIds: permissions.map(menuId),
      });
      if (role.status !== 200) throw new Error(JSON.stringify(role.body));
      const { accountId, user } = await newUser([role.body.data.id]);
      return { caller: await signIn(ctx, accountId, PASSWORD), userId: user.id, roleId: role.body.data.id, accountId };
    },
    async colleague() {
      return (await newUser([])).user;
    },
  };
}

type Attempt = { what: string; status: number; expected: number };
type Probe = (a: Arena) => Promise<Attempt[]>;
const expect403 = (what: string, r: { status: number }): Attempt => ({ what, status: r.status, expected: 403 });
const expect200 = (what: string, r: { status: number }): Attempt => ({ what, status: r.status, expected: 200 });

const userPerms = (...actions: string[]) => ['system:user:list', 'system:user:query', ...actions.map((a) => `system:user:${a}`)];
const rolePerms = (...actions: string[]) => ['system:role:list', 'system:role:query', ...actions.map((a) => `system:role:${a}`)];

/**
 * One probe per privileged route: a caller holding that route's permission tries each escalation
 * (403 expected) and one ordinary write (200 expected, so a probe that cannot get past validation fails).
 */
export const escalationProbes: Record<string, Probe> = {
  'POST /api/system/user/info': async (a) => {
    const { caller } = await a.limited(userPerms('create'));
    const granter = await a.limited(userPerms('create', 'grant'));
    const self = await a.limited(userPerms('create', 'grant'), '5');
    const base = { name: 'New', password: PASSWORD, deptId: a.sandbox };
    return [
      // no roles chosen: the tenant's default role, which grants more than this caller holds
      expect403(
        'create without roles, the default role granting more than one holds',
        await caller.post('/api/system/user/info', { ...base, accountId: `x${++serial}` }),
      ),
      expect403(
        'create a user one could not see afterwards (data scope: oneself only)',
        await self.caller.post('/api/system/user/info', { ...base, accountId: `x${++serial}`, roleIds: [self.roleId] }),
      ),
      expect403(
        'create with the admin role, without system:user:grant',
        await caller.post('/api/system/user/info', { ...base, accountId: `x${++serial}`, roleIds: [a.adminRoleId] }),
      ),
      expect403(
        'create in a department outside the data scope',
        await caller.post('/api/system/user/info', { ...base, accountId: `x${++serial}`, deptId: a.outside }),
      ),
      expect403(
        'create a tenant administrator (user type 01)',
        await caller.post('/api/system/user/info', { ...base, accountId: `x${++serial}`, userType: '01' }),
      ),
      expect200(
        'create an ordinary user in scope with one’s own role',
        await granter.caller.post('/api/system/user/info', { ...base, accountId: `x${++serial}`, roleIds: [granter.roleId] }),
      ),
    ];
  },
  'PUT /api/system/user/info/:id': async (a) => {
    const { caller, userId } = await a.limited(userPerms('update'));
    const me = (await caller.get(`/api/system/user/user/${userId}`)).body.data;
    const other = await a.colleague();
    return [
      expect403('give oneself the admin role', await caller.put(`/api/system/user/info/${userId}`, { ...me, roleIds: [a.adminRoleId] })),
      expect403('move oneself out of the data scope', await caller.put(`/api/system/user/info/${userId}`, { ...me, deptId: a.outside })),
      expect403('change one’s own user type', await caller.put(`/api/system/user/info/${userId}`, { ...me, userType: '01' })),
      expect403('disable oneself through the form', await caller.put(`/api/system/user/info/${userId}`, { ...me, status: '1' })),
      expect403(
        'give a colleague the admin role',
        await caller.put(`/api/system/user/info/${other.id}`, { ...other, roleIds: [a.adminRoleId] }),
      ),
      expect403(
        'move a colleague out of the data scope',
        await caller.put(`/api/system/user/info/${other.id}`, { ...other, deptId: a.outside }),
      ),
      expect200('rename a colleague', await caller.put(`/api/system/user/info/${other.id}`, { ...other, name: 'Renamed' })),
    ];
  },
  'PUT /api/system/user/authRole/:id': async (a) => {
    const { caller, userId, roleId } = await a.limited(userPerms('grant'));
    const other = await a.colleague();
    return [
      expect403(
        'grant oneself the admin role',
        await caller.put(`/api/system/user/authRole/${userId}`, { roleIds: [roleId, a.adminRoleId] }),
      ),
      expect403('drop one’s own role', await caller.put(`/api/system/user/authRole/${userId}`, { roleIds: [] })),
      expect403(
        'grant a colleague the admin role',
        await caller.put(`/api/system/user/authRole/${other.id}`, { roleIds: [a.adminRoleId] }),
      ),
      // adding only: taking away the colleague's default role (which the caller does not hold) is refused too
      expect200(
        'grant a colleague one’s own role',
        await caller.put(`/api/system/user/authRole/${other.id}`, { roleIds: [...(other.roleIds as number[]), roleId] }),
      ),
    ];
  },
  'POST /api/system/role': async (a) => {
    const { caller, roleId } = await a.limited(rolePerms('create'), '3');
    const menuTree = flatten((await a.admin.get('/api/system/role/menuTree')).body.data as MenuNode[]);
    const own = (await caller.get(`/api/system/role/${roleId}`)).body.data as { menuIds: number[] };
    return [
      expect403(
        'a role with every menu',
        await caller.post('/api/system/role', { name: 'All', code: `all${++serial}`, dataScope: '3', menuIds: menuTree.map((m) => m.id) }),
      ),
      expect403(
        'a role with data scope all',
        await caller.post('/api/system/role', { name: 'Wide', code: `wide${++serial}`, dataScope: '1', menuIds: [] }),
      ),
      expect403(
        'a role over a department outside the scope',
        await caller.post('/api/system/role', { name: 'Out', code: `out${++serial}`, dataScope: '2', deptIds: [a.outside] }),
      ),
      expect200(
        'a role within one’s own grant',
        await caller.post('/api/system/role', { name: 'Small', code: `small${++serial}`, dataScope: '5', menuIds: own.menuIds }),
      ),
    ];
  },
  'PUT /api/system/role/:id': async (a) => {
    const { caller, roleId } = await a.limited(rolePerms('update'), '5');
    const own = (await caller.get(`/api/system/role/${roleId}`)).body.data;
    const admin = (await caller.get(`/api/system/role/${a.adminRoleId}`)).body.data;
    const small = (
      await a.admin.post('/api/system/role', { name: 'Small', code: `small${++serial}`, dataScope: '5', menuIds: own.menuIds })
    ).body.data;
    return [
      expect403('widen one’s own role to data scope all', await caller.put(`/api/system/role/${roleId}`, { ...own, dataScope: '1' })),
      expect403('strip the admin role', await caller.put(`/api/system/role/${a.adminRoleId}`, { ...admin, menuIds: [] })),
      expect403('grow another role beyond one’s own', await caller.put(`/api/system/role/${small.id}`, { ...small, dataScope: '1' })),
      expect200('rename a role within one’s own grant', await caller.put(`/api/system/role/${small.id}`, { ...small, name: 'Renamed' })),
    ];
  },
  'POST /api/system/dept': async (a) => {
    const { caller } = await a.limited(['system:dept:list', 'system:dept:query', 'system:dept:create'], '4');
    return [
      expect403('a department under one outside the scope', await caller.post('/api/system/dept', { name: 'Out', parentId: a.outside })),
      expect200('a department under the own one', await caller.post('/api/system/dept', { name: 'In', parentId: a.sandbox })),
    ];
  },
  'PUT /api/system/dept/:id': async (a) => {
    const { caller } = await a.limited(['system:dept:list', 'system:dept:query', 'system:dept:update'], '4');
    const outside = (await a.admin.get(`/api/system/dept/${a.outside}`)).body.data;
    const sandbox = (await a.admin.get(`/api/system/dept/${a.sandbox}`)).body.data;
    const child = (await a.admin.post('/api/system/dept', { name: 'Child', parentId: a.sandbox })).body.data;
    return [
      expect403(
        'pull an outside department (and its people) into the scope',
        await caller.put(`/api/system/dept/${a.outside}`, { ...outside, parentId: a.sandbox }),
      ),
      expect403(
        'move the own department under an outside one',
        await caller.put(`/api/system/dept/${a.sandbox}`, { ...sandbox, parentId: a.outside }),
      ),
      expect403('rename a department outside the scope', await caller.put(`/api/system/dept/${a.outside}`, { ...outside, name: 'Mine' })),
      expect200('rename a department in scope', await caller.put(`/api/system/dept/${child.id}`, { ...child, name: 'Renamed' })),
    ];
  },
  // the global menu catalogue is the super admin's alone, whatever permission a tenant role carries
  'POST /api/system/menu': async (a) => {
    const { caller } = await a.limited(['system:menu:list', 'system:menu:query', 'system:menu:create'], '1');
    return [
      expect403(
        'add a menu to the catalogue',
        await caller.post('/api/system/menu', { type: 'menu', title: 'Mine', routeName: `mine${++serial}`, path: '/mine' }),
      ),
    ];
  },
  'PUT /api/system/menu/:id': async (a) => {
    const { caller } = await a.limited(['system:menu:list', 'system:menu:query', 'system:menu:update'], '1');
    const menu = (await a.admin.get('/api/system/menu?pageSize=1')).body.data.list[0];
    return [expect403('change a catalogue menu', await caller.put(`/api/system/menu/${menu.id}`, { type: menu.type, title: 'Changed' }))];
  },
};

/** Routes with no privileged field that still need a probe: role status and delete, force-logout. */
export const extraProbes: Record<string, Probe> = {
  'PUT /api/system/role/:id/status': async (a) => {
    const { caller, roleId } = await a.limited(rolePerms('status'), '5');
    return [
      expect403('disable the admin role', await caller.put(`/api/system/role/${a.adminRoleId}/status`, { status: '1' })),
      expect403('disable one’s own role', await caller.put(`/api/system/role/${roleId}/status`, { status: '1' })),
    ];
  },
  'DELETE /api/system/session/:id': async (a) => {
    // a tenant administrator: every menu of the tenant, data scope all, but not the super admin
    const tenantAdmin = await a.limited(['system:session:list', 'system:session:forceLogout'], '1');
    await a.admin.put(`/api/system/user/authRole/${tenantAdmin.userId}`, { roleIds: [a.adminRoleId] });
    const victim = await a.limited(['system:user:list'], '5');
    const sessions = (await a.admin.get('/api/system/session?pageSize=100')).body.data.list as { id: number; accountId: string }[];
    const superSession = sessions.find((s) => s.accountId === 'admin');
    const other = sessions.find((s) => s.accountId === victim.accountId);
    // a caller who may sign people out, but holds less than the tenant administrator
    const operator = await a.limited(['system:session:list', 'system:session:forceLogout'], '1');
    const adminSession = (await a.admin.get('/api/system/session?pageSize=100')).body.data.list.find(
      (s: { accountId: string }) => s.accountId === tenantAdmin.accountId,
    );
    return [
      expect403('end the super admin’s session', await tenantAdmin.caller.del(`/api/system/session/${superSession?.id}`)),
      expect403('end the session of someone holding more', await operator.caller.del(`/api/system/session/${adminSession?.id}`)),
      expect200('end an ordinary session', await tenantAdmin.caller.del(`/api/system/session/${other?.id}`)),
    ];
  },
  'PUT /api/system/dept/:id/status': async (a) => {
    const { caller } = await a.limited(['system:dept:list', 'system:dept:query', 'system:dept:status'], '4');
    const child = (await a.admin.post('/api/system/dept', { name: 'Child', parentId: a.sandbox })).body.data;
    return [
      expect403('disable a department outside the scope', await caller.put(`/api/system/dept/${a.outside}/status`, { status: '1' })),
      expect200('disable a department in scope', await caller.put(`/api/system/dept/${child.id}/status`, { status: '1' })),
    ];
  },
  'DELETE /api/system/dept/:id': async (a) => {
    const { caller } = await a.limited(['system:dept:list', 'system:dept:query', 'system:dept:delete'], '4');
    const empty = (await a.admin.post('/api/system/dept', { name: 'Empty' })).body.data;
    const child = (await a.admin.post('/api/system/dept', { name: 'Child', parentId: a.sandbox })).body.data;
    return [
      expect403('delete a department outside the scope', await caller.del(`/api/system/dept/${empty.id}`)),
      expect200('delete a department in scope', await caller.del(`/api/system/dept/${child.id}`)),
    ];
  },
  'DELETE /api/release/user-project/:id': async (a) => {
    const { caller, userId } = await a.limited(['release:userProject:list', 'release:userProject:delete'], '1');
    const colleague = await a.colleague();
    const project = async () => (await a.admin.post('/api/release/project', { key: `p${++serial}`, name: 'Probe' })).body.data.id;
    const [theirs, mine] = [await project(), await project()];
    const grant = async (who: number, projectId: number, level: string) =>
      (await a.admin.post('/api/release/user-project', { userId: who, projectId, level })).body.data.id;
    const onTheirs = await grant(colleague.id, theirs, 'MAINTAINER');
    await grant(userId, mine, 'MAINTAINER');
    const onMine = await grant(colleague.id, mine, 'VIEWER');
    return [
      expect403('revoke a grant on a project one does not maintain', await caller.del(`/api/release/user-project/${onTheirs}`)),
      expect200('revoke a grant on a project one maintains', await caller.del(`/api/release/user-project/${onMine}`)),
    ];
  },
};

/** Every write route that declares a permission, grouped by it: ERP and system alike. */
export function writeRoutesByPermission(routes: RegisteredRoute[]): Map<string, RegisteredRoute[]> {
  const byPermission = new Map<string, RegisteredRoute[]>();
  for (const route of apiRoutes(routes)) {
    const permission = route.config.permission;
    if (route.method === 'GET' || !permission) continue;
    byPermission.set(permission, [...(byPermission.get(permission) ?? []), route]);
  }
  return byPermission;
}

/**
 * A caller whose one role holds every menu of the tenant but those carrying `missing` (none by default):
 * the super admin rewrites the role, the caller's access follows at once.
 */
export async function allBut(a: Arena) {
  const menus = flatten((await a.admin.get('/api/system/role/menuTree')).body.data as MenuNode[]);
  const { caller, roleId } = await a.limited([], '1');
  const role = (await a.admin.get(`/api/system/role/${roleId}`)).body.data;
  return {
    caller,
    /** The permissions some menu carries (a permission no menu carries is the super admin's alone). */
    granted: new Set(menus.flatMap((m) => (m.permission ? [m.permission] : []))),
    async hold(missing: string | null) {
      const menuIds = menus.filter((m) => m.permission !== missing).map((m) => m.id);
      const answer = await a.admin.put(`/api/system/role/${roleId}`, { ...role, menuIds });
      if (answer.status !== 200) throw new Error(`rewriting the probe role: ${JSON.stringify(answer.body)}`);
    },
  };
}

const identifierUse = (route: RegisteredRoute) => route.config.accountIdentifiers as AccountIdentifierUse | undefined;
const identifierKeys = (route: RegisteredRoute) =>
  bodyKeys(route).filter((k) => (ACCOUNT_IDENTIFIER_FIELDS as readonly string[]).includes(k));

/** Write routes whose body carries a sign-in or recovery identifier but that do not declare how they use it. */
export function undeclaredIdentifierRoutes(routes: RegisteredRoute[]): string[] {
  return apiRoutes(routes)
    .filter((r) => r.method !== 'GET' && identifierKeys(r).length > 0 && !identifierUse(r))
    .map((r) => `${r.method} ${r.url}`);
}

/** Routes that change the identifiers of the account of the user their `:id` names. */
export function identifierTargetRoutes(routes: RegisteredRoute[]): RegisteredRoute[] {
  return apiRoutes(routes).filter((r) => identifierUse(r)?.use === 'target');
}

/** A value for an identifier field no account holds yet. */
const freshIdentifier = (field: string) => {
  const n = ++serial;
  if (field === 'email') return `moved.${Date.now().toString(36)}.${n}@probe.test`;
  if (field === 'phone') return `+86 139${String(Date.now() % 1e5).padStart(5, '0')}${String(n).padStart(3, '0')}`;
  return `moved.${Date.now().toString(36)}.${n}`;
};

/**
 * The generated probe of a route that changes another account's identifiers: a caller holding the route's
 * permission (and the read's), data scope all, changes each identifier field of a user holding the admin
 * role (403, the field unchanged) and of a user holding nothing (200, the previous e-mail told of it).
 */
export async function identifierProbe(a: Arena, route: RegisteredRoute, mails: Mail[]): Promise<string[]> {
  const use = identifierUse(route) as Extract<AccountIdentifierUse, { use: 'target' }>;
  const readUrl = `/api${use.read}`;
  const read = apiRoutes(a.ctx.app.routeRegistry).find((r) => r.method === 'GET' && r.url === readUrl);
  if (!read) return [`${route.method} ${route.url}: no GET ${use.read} to read the target with`];
  const permissions = [route.config.permission, read.config.permission].filter((p): p is string => !!p);
  const { caller } = await a.limited(permissions, '1');
  const person = async (roleIds: number[]) => {
    const user = await a.colleague();
    await a.admin.put(`/api/system/user/authRole/${user.id}`, { roleIds });
    const current = (await a.admin.get(fillParams(readUrl, () => String(user.id)))).body.data;
    const email = freshIdentifier('email');
    const set = await a.admin.put(`/api/system/user/info/${user.id}`, { ...current, email });
    if (set.status !== 200) throw new Error(`giving ${user.id} an e-mail: ${JSON.stringify(set.body)}`);
    return { id: user.id as number, email };
  };
  const boss = await person([a.adminRoleId]);
  const plain = await person([]);
  const readBack = async (id: number) => (await a.admin.get(fillParams(readUrl, () => String(id)))).body.data;
  const send = async (id: number, field: string, value: string) =>
    a.ctx.app.inject({
      method: route.method as 'PUT',
      url: fillParams(route.url, () => String(id)),
      headers: { authorization: `Bearer ${caller.token}` },
      payload: { ...(await readBack(id)), [field]: value },
    });
  const failures: string[] = [];
  for (const field of identifierKeys(route)) {
    const before = (await readBack(boss.id))[field];
    const refused = await send(boss.id, field, freshIdentifier(field));
    if (refused.statusCode !== 403) failures.push(`${field} of a user holding more → ${refused.statusCode}`);
    const after = (await readBack(boss.id))[field];
    if (after !== before) failures.push(`${field} of a user holding more changed: ${before} → ${after}`);
    const told = mails.length;
    const value = freshIdentifier(field);
    const allowed = await send(plain.id, field, value);
    if (allowed.statusCode !== 200) failures.push(`${field} of a user holding nothing → ${allowed.statusCode} ${allowed.body}`);
    else if (!mails.slice(told).some((m) => m.to === plain.email)) failures.push(`${field} changed, ${plain.email} not told`);
    if (field === 'email' && allowed.statusCode === 200) plain.email = value;
  }
  return failures;
}
