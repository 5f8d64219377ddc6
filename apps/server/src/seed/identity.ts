import { randomBytes } from 'node:crypto';
import { allPermissions, type CatalogueRoute, routeCatalogue, validationMessages } from '@atrium/contracts';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Config, ConfigError } from '../config';
import { type Database, withTenant } from '../db/client';
import { accounts, memberships, menus, roleMenus, roles, tenants, tenantUsers, userRoles } from '../db/schema';
import { hashPassword, passwordProblem } from '../modules/auth/password';
import { ensureStandardRoles } from '../modules/auth/standard-roles';

type MenuRow = typeof menus.$inferInsert;

const menuType = (route: CatalogueRoute): 'dir' | 'menu' | 'link' => (route.meta.link ? 'link' : route.children?.length ? 'dir' : 'menu');

function menuRow(route: CatalogueRoute, parentId: number | null): MenuRow {
  const m = route.meta;
  return {
    parentId,
    type: menuType(route),
    title: route.name.slice(0, 20),
    routeName: route.name,
    path: route.path,
    icon: m.icon ?? null,
    locale: m.locale,
    permission: route.permission ?? null,
    // the catalogue's order for top-level entries; children keep their written order (by id)
    orderNum: m.order ?? 0,
    hideInMenu: m.hideInMenu ?? false,
    hideChildrenInMenu: m.hideChildrenInMenu ?? false,
    requiresAuth: m.requiresAuth ?? true,
    roles: m.roles ?? ['*'],
    activeMenu: m.activeMenu ?? null,
    noAffix: m.noAffix ?? false,
    ignoreCache: m.ignoreCache ?? false,
  };
}

/** Entities managed from another entity's page: their buttons sit under that page. */
const BUTTON_PAGES: Record<string, string> = { 'mall:printJob': 'mallPrinter' };

/**
 * The global menu catalogue from the contracts' route catalogue, plus one button per permission of
 * `permissionCatalogue` under the system menu listing that entity. Idempotent: entries are matched by
 * route name or permission; entries added since the last start are granted to every tenant's `admin` role.
 */
export async function seedMenus(database: Database): Promise<number[]> {
  const db = database.db;
  const added: number[] = [];
  const insert = async (route: CatalogueRoute, parentId: number | null) => {
    const inserted = await db
      .insert(menus)
      .values(menuRow(route, parentId))
      .onConflictDoNothing({ target: menus.routeName })
      .returning({ id: menus.id });
    if (inserted[0]) added.push(inserted[0].id);
    const [row] = await db.select({ id: menus.id }).from(menus).where(eq(menus.routeName, route.name));
    const id = (row as { id: number }).id;
    for (const child of route.children ?? []) await insert(child, id);
  };
  for (const route of routeCatalogue) await insert(route, null);

  const carried = await db
    .select({ id: menus.id, permission: menus.permission, type: menus.type, parentId: menus.parentId })
    .from(menus)
    .where(isNotNull(menus.permission));
  const byPermission = new Map(carried.map((m) => [m.permission as string, m.id]));
  const pages = await db.select({ id: menus.id, routeName: menus.routeName }).from(menus).where(isNotNull(menus.routeName));
  const byRoute = new Map(pages.map((m) => [m.routeName as string, m.id]));
  // a button sits under the page listing its entity: the menu carrying its list (or query) permission,
  // else the page named after it (`release:userProject` → `releaseUserProject`)
  const parentOf = (domain: string, entity: string): number | null => {
    const page = BUTTON_PAGES[`${domain}:${entity}`] ?? `${domain}${entity.charAt(0).toUpperCase()}${entity.slice(1)}`;
    return byPermission.get(`${domain}:${entity}:list`) ?? byPermission.get(`${domain}:${entity}:query`) ?? byRoute.get(page) ?? null;
  };
  // buttons seeded before their page could be found move under it
  for (const button of carried) {
    if (button.type !== 'button' || button.parentId !== null) continue;
    const [domain, entity] = (button.permission as string).split(':') as [string, string];
    const parentId = parentOf(domain, entity);
    if (parentId !== null) await db.update(menus).set({ parentId }).where(eq(menus.id, button.id));
  }
  const buttons: MenuRow[] = [];
  for (const permission of allPermissions) {
    if (byPermission.has(permission)) continue;
    const [domain, entity, action] = permission.split(':') as [string, string, string];
    const parentId = parentOf(domain, entity);
    buttons.push({
      parentId,
      type: 'button',
      title: action.slice(0, 20),
      permission,
      locale: `permission.${permission}`,
      orderNum: 0,
      roles: ['*'],
    });
  }
  if (buttons.length) {
    const inserted = await db.insert(menus).values(buttons).onConflictDoNothing({ target: menus.permission }).returning({ id: menus.id });
    added.push(...inserted.map((r) => r.id));
  }
  if (added.length) {
    // new catalogue entries reach every tenant's admin role
    const all = await db.select({ id: tenants.id }).from(tenants);
    for (const tenant of all) {
      await withTenant(db, tenant.id, async (tx) => {
        const admins = await tx
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.tenantId, tenant.id), eq(roles.code, 'admin')));
        for (const role of admins) {
          await tx
            .insert(roleMenus)
            .values(added.map((menuId) => ({ tenantId: tenant.id, roleId: role.id, menuId })))
            .onConflictDoNothing();
        }
      });
    }
  }
  return added;
}

/** Makes the account a member of the tenant with the given type and roles (idempotent). */
export async function ensureMember(
  database: Database,
  tenantId: number,
  accountRef: number,
  userType: '00' | '01' | '02',
  roleIds: number[],
): Promise<number> {
  await database.db.insert(memberships).values({ accountId: accountRef, tenantRef: tenantId }).onConflictDoNothing();
  return withTenant(database.db, tenantId, async (tx) => {
    let [user] = await tx
      .select({ id: tenantUsers.id })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.accountRef, accountRef)));
    if (!user) {
      [user] = await tx
        .insert(tenantUsers)
        .values({ tenantId, accountRef, userType, createBy: 'system' })
        .returning({ id: tenantUsers.id });
    }
    const userId = (user as { id: number }).id;
    if (roleIds.length) {
      await tx
        .insert(userRoles)
        .values(roleIds.map((roleId) => ({ tenantId, userId, roleId })))
        .onConflictDoNothing();
    }
    return userId;
  });
}

type AccountSeed = {
  accountId: string;
  password: string;
  superAdmin: boolean;
  nickname: string;
  name: string;
  email: string | null;
  phone: string | null;
};

/** An account by user number, created when missing; answers its id. */
export async function ensureAccount(database: Database, seed: AccountSeed): Promise<number> {
  const lookup = () =>
    database.db.select({ id: accounts.id }).from(accounts).where(sql`lower(${accounts.accountId}) = ${seed.accountId.toLowerCase()}`);
  const [existing] = await lookup();
  if (existing) return existing.id;
  const { password, ...fields } = seed;
  await database.db
    .insert(accounts)
    .values({
      ...fields,
      passwordHash: await hashPassword(password),
      clientKey: randomBytes(16).toString('hex'),
      passwordChangedAt: new Date(),
    })
    .onConflictDoNothing();
  const [row] = await lookup();
  return (row as { id: number }).id;
}

/** The demo accounts; their passwords are in the README. */
export const demoAccounts = {
  admin: {
    accountId: 'admin',
    password: 'Admin@123456',
    superAdmin: true,
    nickname: 'Administrator',
    name: 'Admin',
    email: 'admin@atrium.example',
    phone: '13800000001',
  },
  user: {
    accountId: 'user',
    password: 'User@123456',
    superAdmin: false,
    nickname: 'Ordinary user',
    name: 'User',
    email: 'user@atrium.example',
    phone: '13800000002',
  },
  acme: {
    accountId: 'acme',
    password: 'Acme@123456',
    superAdmin: false,
    nickname: 'Acme admin',
    name: 'Acme',
    email: 'ops@acme.example',
    phone: '13800000003',
  },
} satisfies Record<string, AccountSeed>;

async function standardRoles(database: Database, tenantId: number) {
  return withTenant(database.db, tenantId, (tx) => ensureStandardRoles(tx, tenantId));
}

/** SEED=demo: the accounts of the README in tenants hq and acme (the tenants themselves are seeded before). */
export async function seedDemoIdentity(database: Database): Promise<void> {
  const found = await database.db
    .select({ id: tenants.id, code: tenants.code })
    .from(tenants)
    .where(inArray(tenants.code, ['hq', 'acme']));
  const hq = found.find((t) => t.code === 'hq')?.id as number;
  const acme = found.find((t) => t.code === 'acme')?.id as number;
  const admin = await ensureAccount(database, demoAccounts.admin);
  const user = await ensureAccount(database, demoAccounts.user);
  const acmeAdmin = await ensureAccount(database, demoAccounts.acme);
  const hqRoles = await standardRoles(database, hq);
  const acmeRoles = await standardRoles(database, acme);
  await ensureMember(database, hq, admin, '00', [hqRoles.admin]);
  await ensureMember(database, acme, admin, '00', [acmeRoles.admin]);
  await ensureMember(database, hq, user, '02', [hqRoles.user]);
  await ensureMember(database, acme, acmeAdmin, '01', [acmeRoles.admin]);
}

/**
 * SEED=none: the first super admin from ADMIN_ACCOUNT / ADMIN_PASSWORD, in a first tenant `main` when
 * there is none. Nothing happens once a super admin exists.
 */
export async function seedFirstAdmin(database: Database, config: Config): Promise<void> {
  const password = config.ADMIN_PASSWORD;
  const problem = password ? passwordProblem(password) : null;
  if (problem) {
    throw new ConfigError(
      `Invalid configuration: ADMIN_PASSWORD is too weak: ${validationMessages[problem]?.en ?? problem} (at least 10 characters with letters, digits and special characters, not a common password)`,
    );
  }
  const [existing] = await database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.superAdmin, true)).limit(1);
  if (existing) return;
  if (!password) throw new ConfigError('Invalid configuration: ADMIN_PASSWORD is required to create the first super admin (SEED=none)');
  let [tenant] = await database.db.select({ id: tenants.id }).from(tenants).orderBy(tenants.id).limit(1);
  if (!tenant) {
    [tenant] = await database.db
      .insert(tenants)
      .values({ code: 'main', name: 'Atrium' })
      .onConflictDoNothing()
      .returning({ id: tenants.id });
    tenant ??= (await database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'main')))[0];
  }
  const tenantId = (tenant as { id: number }).id;
  const accountRef = await ensureAccount(database, {
    accountId: config.ADMIN_ACCOUNT,
    password,
    superAdmin: true,
    nickname: 'Administrator',
    name: 'Admin',
    email: null,
    phone: null,
  });
  const roleIds = await standardRoles(database, tenantId);
  await ensureMember(database, tenantId, accountRef, '00', [roleIds.admin]);
}
