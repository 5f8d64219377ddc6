import { randomBytes } from 'node:crypto';
import { count, eq, inArray } from 'drizzle-orm';
import type { Database, Tx } from '../db/client';
import { withTenant } from '../db/client';
import { accounts, depts, memberships, posts, tenants, tenantUsers, userPosts, userRoles } from '../db/schema';
import { ensureRole } from '../modules/auth/standard-roles';

type DeptSeed = { zh: string; en: string; leader?: string; children?: DeptSeed[] };

const organisation: DeptSeed = {
  zh: '总部',
  en: 'Head Office',
  children: [
    {
      zh: '研发中心',
      en: 'R&D Centre',
      children: [
        { zh: '平台组', en: 'Platform' },
        { zh: '应用组', en: 'Applications' },
        { zh: '测试组', en: 'Quality' },
      ],
    },
    {
      zh: '销售部',
      en: 'Sales',
      children: [
        { zh: '华东大区', en: 'East Region' },
        { zh: '华南大区', en: 'South Region' },
      ],
    },
    { zh: '市场部', en: 'Marketing' },
    { zh: '财务部', en: 'Finance' },
    { zh: '人力资源部', en: 'Human Resources' },
    {
      zh: '运营部',
      en: 'Operations',
      children: [
        { zh: '仓储物流', en: 'Warehouse & Logistics' },
        { zh: '客户服务', en: 'Customer Service' },
      ],
    },
  ],
};

const postSeeds = [
  ['ceo', '董事长', 'Chairman'],
  ['gm', '总经理', 'General Manager'],
  ['manager', '部门经理', 'Department Manager'],
  ['engineer', '工程师', 'Engineer'],
  ['sales', '销售代表', 'Sales Representative'],
  ['hr', '人事专员', 'HR Specialist'],
  ['accountant', '会计', 'Accountant'],
  ['staff', '普通员工', 'Staff'],
] as const;

const surnames = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何', '高', '林', '罗'];
const givenNames = [
  '伟',
  '芳',
  '娜',
  '秀英',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀兰',
  '霞',
  '平',
  '刚',
  '桂英',
  '浩然',
];
const firstNames = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Oliver',
  'Sophia',
  'Elijah',
  'Isabella',
  'James',
  'Mia',
  'Lucas',
  'Amelia',
  'Mason',
  'Harper',
  'Ethan',
  'Evelyn',
  'Logan',
  'Abigail',
  'Jacob',
];
const lastNames = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Martin',
  'Lee',
  'Walker',
  'Hall',
  'Allen',
  'Young',
  'King',
  'Wright',
  'Scott',
  'Green',
  'Baker',
  'Adams',
];

export const SEEDED_USERS_PER_TENANT = 220;

/** The i-th demo person: deterministic, so every start builds the same organisation. */
export function demoPerson(i: number, chineseShare: number) {
  const chinese = (i * 37) % 100 < chineseShare;
  if (chinese) {
    const name = `${surnames[(i * 7) % surnames.length]}${givenNames[(i * 11) % givenNames.length]}`;
    return { name, nickname: name, sex: (i % 3 === 2 ? '1' : '0') as '0' | '1' };
  }
  const first = firstNames[(i * 7) % firstNames.length] as string;
  const last = lastNames[(i * 13) % lastNames.length] as string;
  return { name: `${first} ${last}`.slice(0, 20), nickname: first, sex: (i % 2 ? '1' : '0') as '0' | '1' };
}

async function seedDepts(tx: Tx, tenantId: number, english: boolean): Promise<number[]> {
  const ids: number[] = [];
  const insert = async (node: DeptSeed, parentId: number | null, ancestors: number[], order: number) => {
    const [row] = await tx
      .insert(depts)
      .values({ tenantId, parentId, ancestors, name: english ? node.en : node.zh, orderNum: order, createBy: 'system' })
      .returning({ id: depts.id });
    const id = (row as { id: number }).id;
    ids.push(id);
    for (const [i, child] of (node.children ?? []).entries()) await insert(child, id, [...ancestors, id], i);
  };
  await insert(organisation, null, [], 0);
  return ids;
}

/**
 * A believable organisation per demo tenant: a department tree, posts, two more roles and
 * SEEDED_USERS_PER_TENANT people with Chinese and English names. The people have no password
 * (they cannot sign in), so no start pays for hundreds of password hashes. Skipped for a tenant
 * that already has departments.
 */
export async function seedDemoOrganisation(database: Database, tenantCodes: readonly string[]): Promise<void> {
  const found = await database.db
    .select()
    .from(tenants)
    .where(inArray(tenants.code, [...tenantCodes]));
  for (const [t, tenant] of found.entries()) {
    const english = tenant.code !== 'hq';
    const done = await withTenant(database.db, tenant.id, async (tx) => {
      const [existing] = await tx.select({ n: count() }).from(depts).where(eq(depts.tenantId, tenant.id));
      return (existing?.n ?? 0) > 0;
    });
    if (done) continue;

    const people = Array.from({ length: SEEDED_USERS_PER_TENANT }, (_, i) => {
      const person = demoPerson(i + t * 1000, english ? 30 : 75);
      const accountId = `${tenant.code}${String(i + 1).padStart(4, '0')}`;
      return {
        ...person,
        accountId,
        email: `${accountId}@${tenant.code}.example`,
        phone: `13${6 + t}0${String(i + 1).padStart(7, '0')}`,
        clientKey: randomBytes(16).toString('hex'),
        lastTenantId: tenant.id,
      };
    });
    await database.db.insert(accounts).values(people).onConflictDoNothing();
    const accountRows = await database.db
      .select({ id: accounts.id, accountId: accounts.accountId })
      .from(accounts)
      .where(
        inArray(
          accounts.accountId,
          people.map((p) => p.accountId),
        ),
      );
    await database.db
      .insert(memberships)
      .values(accountRows.map((a) => ({ accountId: a.id, tenantRef: tenant.id })))
      .onConflictDoNothing();

    await withTenant(database.db, tenant.id, async (tx) => {
      const deptIds = await seedDepts(tx, tenant.id, english);
      const postRows = await tx
        .insert(posts)
        .values(
          postSeeds.map(([code, zh, en], i) => ({ tenantId: tenant.id, code, name: english ? en : zh, orderNum: i, createBy: 'system' })),
        )
        .onConflictDoNothing()
        .returning({ id: posts.id, code: posts.code });
      const managerRole = await ensureRole(
        tx,
        tenant.id,
        { code: 'dept_manager', name: english ? 'Dept manager' : '部门经理', dataScope: '4', orderNum: 3 },
        [
          'system',
          'systemUser',
          'systemDept',
          'system:user:list',
          'system:user:query',
          'system:user:update',
          'system:dept:list',
          'system:dept:query',
        ],
      );
      const auditorRole = await ensureRole(
        tx,
        tenant.id,
        { code: 'auditor', name: english ? 'Auditor' : '审计员', dataScope: '1', orderNum: 4 },
        [
          'system',
          'systemOperlog',
          'systemLoginlog',
          'system:operlog:list',
          'system:operlog:query',
          'system:operlog:export',
          'system:loginlog:list',
          'system:loginlog:export',
        ],
      );
      const byAccount = new Map(accountRows.map((a) => [a.accountId, a.id]));
      // the newest person joined just now, the oldest about a year ago: never a date in the future
      const seededAt = Date.now();
      const members = await tx
        .insert(tenantUsers)
        .values(
          people.map((p, i) => ({
            tenantId: tenant.id,
            accountRef: byAccount.get(p.accountId) as number,
            // the root keeps few people; everyone else spreads over the departments below it
            deptId: deptIds[1 + (i % (deptIds.length - 1))] as number,
            userType: '02',
            status: i % 23 === 22 ? '1' : '0',
            createBy: 'system',
            // spread over the past year so date filters and sorting have something to show
            createTime: new Date(seededAt - (people.length - i) * 36 * 3600 * 1000),
          })),
        )
        .onConflictDoNothing()
        .returning({ id: tenantUsers.id });
      const staff = postRows.find((p) => p.code === 'staff')?.id;
      const manager = postRows.find((p) => p.code === 'manager')?.id;
      if (staff && manager) {
        await tx
          .insert(userPosts)
          .values(members.map((m, i) => ({ tenantId: tenant.id, userId: m.id, postId: i % 15 === 0 ? manager : staff })));
      }
      const roleOf = (i: number) => (i % 15 === 0 ? managerRole : i % 40 === 1 ? auditorRole : null);
      const grants = members.flatMap((m, i) => {
        const roleId = roleOf(i);
        return roleId ? [{ tenantId: tenant.id, userId: m.id, roleId }] : [];
      });
      if (grants.length) await tx.insert(userRoles).values(grants).onConflictDoNothing();
    });
  }
}
