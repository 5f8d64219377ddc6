import { setContentTypes, setFilterTypes } from '@atrium/contracts';
import { count, eq } from 'drizzle-orm';
import { type Database, withTenant } from '../db/client';
import { listServices, listSets, paramApprovalRecords, paramApprovals, tenants } from '../db/schema';

/** A small linear congruential generator: the same demo rows on every machine. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const topicsZh = ['春茶', '新品', '会员日', '夏季', '直播', '秒杀', '限时', '精选', '国潮', '乡村'];
const kindsZh = ['专题', '合集', '推荐', '榜单', '清单'];
const topicsEn = ['Spring tea', 'New in', 'Member day', 'Summer', 'Live', 'Flash sale', 'Limited', 'Editors', 'Classics', 'Farm'];
const kindsEn = ['feature', 'collection', 'picks', 'chart', 'list'];

/** The search table's demo sets: a few hundred per demo tenant over the last year. Idempotent. */
export async function seedDemoSets(database: Database, tenantCodes: readonly string[], now = new Date()): Promise<void> {
  for (const code of tenantCodes) {
    const [tenant] = await database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code));
    if (!tenant) continue;
    await withTenant(database.db, tenant.id, async (tx) => {
      const [has] = await tx.select({ n: count() }).from(listSets).where(eq(listSets.tenantId, tenant.id));
      if ((has?.n ?? 0) > 0) return;
      const rnd = random(tenant.id * 104_729);
      const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
      const english = code !== 'hq';
      const rows = Array.from({ length: 320 }, (_, i) => {
        const created = new Date(now.getTime() - Math.floor(rnd() * 365 * 86_400_000));
        return {
          tenantId: tenant.id,
          number: `S${String(10_000 + i)}`,
          name: english ? `${pick(topicsEn)} ${pick(kindsEn)} ${i + 1}` : `${pick(topicsZh)}${pick(kindsZh)}${i + 1}`,
          contentType: pick(setContentTypes),
          filterType: pick(setFilterTypes),
          count: Math.floor(rnd() * 2000),
          status: rnd() < 0.75 ? '0' : '1',
          createBy: 'system',
          createTime: created,
          updateTime: created,
        };
      });
      await tx.insert(listSets).values(rows);
    });
  }
}

const servicesZh: [string, string, string][] = [
  ['quality', '内容质检', '对上线内容做机器与人工双重质检'],
  ['quality', '图片审核', '识别违规图片并给出处理建议'],
  ['quality', '视频审核', '逐帧检查视频中的违规画面'],
  ['quality', '文本纠错', '自动发现错别字与语病'],
  ['content', '智能推荐', '按会员偏好推荐商品与内容'],
  ['content', '内容分发', '把活动内容推送到各个渠道'],
  ['content', '数据看板', '每日汇总销售与流量数据'],
  ['content', '短信通知', '订单状态变化时通知会员'],
  ['rules', '价格规则', '按活动规则自动计算折扣'],
  ['rules', '库存预警', '库存低于阈值时提醒采购'],
  ['rules', '风控规则', '识别异常下单与刷单行为'],
  ['rules', '积分规则', '按消费金额自动累计积分'],
];
const servicesEn: [string, string, string][] = [
  ['quality', 'Content review', 'Machine and human review of published content'],
  ['quality', 'Image moderation', 'Finds non-compliant images and suggests actions'],
  ['quality', 'Video moderation', 'Checks videos frame by frame'],
  ['quality', 'Proofreading', 'Finds typos and grammar slips'],
  ['content', 'Recommendations', 'Products and content by member preference'],
  ['content', 'Distribution', 'Pushes campaign content to every channel'],
  ['content', 'Dashboards', 'Daily sales and traffic summaries'],
  ['content', 'Text messages', 'Tells members when their order changes'],
  ['rules', 'Pricing rules', 'Discounts computed from campaign rules'],
  ['rules', 'Low-stock alerts', 'Warns purchasing below a threshold'],
  ['rules', 'Risk rules', 'Flags unusual and fake orders'],
  ['rules', 'Points rules', 'Points earned from spending'],
];

/** The card list's demo services: a dozen per demo tenant in every state. Idempotent. */
export async function seedDemoServices(database: Database, tenantCodes: readonly string[], now = new Date()): Promise<void> {
  const day = 86_400_000;
  // opened, expired (an opened one whose end has passed), cancelled, renewed — in turn
  const states = [
    { status: 'opened', expires: 200 },
    { status: 'opened', expires: -15 },
    { status: 'cancelled', expires: 40 },
    { status: 'renewed', expires: 380 },
  ];
  for (const code of tenantCodes) {
    const [tenant] = await database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code));
    if (!tenant) continue;
    await withTenant(database.db, tenant.id, async (tx) => {
      const [has] = await tx.select({ n: count() }).from(listServices).where(eq(listServices.tenantId, tenant.id));
      if ((has?.n ?? 0) > 0) return;
      const names = code === 'hq' ? servicesZh : servicesEn;
      await tx.insert(listServices).values(
        names.map(([kind, name, description], i) => {
          const state = states[i % states.length] as (typeof states)[number];
          return {
            tenantId: tenant.id,
            name,
            description,
            kind,
            status: state.status,
            expireTime: new Date(now.getTime() + state.expires * day),
            createBy: 'system',
            createTime: new Date(now.getTime() - (names.length - i) * day),
          };
        }),
      );
    });
  }
}

const approvalsZh: [string, string, string, string][] = [
  ['调整会员积分比例', 'member.pointsPerYuan', '1', '2'],
  ['提高默认库存预警值', 'stock.lowThreshold', '5', '10'],
  ['延长订单自动取消时间', 'sale.autoCancelMinutes', '30', '60'],
  ['开启小票双联打印', 'printer.copies', '1', '2'],
  ['修改发布审批人数', 'release.requiredApprovals', '1', '2'],
];
const approvalsEn: [string, string, string, string][] = [
  ['Double member points per yuan', 'member.pointsPerYuan', '1', '2'],
  ['Raise the low-stock threshold', 'stock.lowThreshold', '5', '10'],
  ['Cancel unpaid orders later', 'sale.autoCancelMinutes', '30', '60'],
  ['Print receipts in two copies', 'printer.copies', '1', '2'],
  ['Two approvals per release', 'release.requiredApprovals', '1', '2'],
];

/** The basic profile's parameter approvals: finished ones with their records, and some still waiting. Idempotent. */
export async function seedDemoApprovals(database: Database, tenantCodes: readonly string[], now = new Date()): Promise<void> {
  const day = 86_400_000;
  for (const code of tenantCodes) {
    const [tenant] = await database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code));
    if (!tenant) continue;
    await withTenant(database.db, tenant.id, async (tx) => {
      const [has] = await tx.select({ n: count() }).from(paramApprovals).where(eq(paramApprovals.tenantId, tenant.id));
      if ((has?.n ?? 0) > 0) return;
      const rows = code === 'hq' ? approvalsZh : approvalsEn;
      for (const [i, [title, parameter, oldValue, newValue]] of rows.entries()) {
        const created = new Date(now.getTime() - (rows.length - i) * 3 * day);
        const decided = new Date(created.getTime() + day);
        const finished = i < 3;
        const [row] = await tx
          .insert(paramApprovals)
          .values({
            tenantId: tenant.id,
            number: `AP${created.toISOString().slice(0, 10).replaceAll('-', '')}${String(i + 1).padStart(4, '0')}`,
            title,
            parameter,
            oldValue,
            newValue,
            stage: finished ? 'finish' : 'approval',
            createBy: 'system',
            createTime: created,
            updateTime: finished ? decided : created,
          })
          .returning({ id: paramApprovals.id });
        const approvalId = (row as { id: number }).id;
        const record = (stage: string, result: string, operator: string | null, time: Date) => ({
          tenantId: tenant.id,
          approvalId,
          stage,
          result,
          operator,
          createTime: time,
        });
        await tx
          .insert(paramApprovalRecords)
          .values(
            finished
              ? [
                  record('commit', 'pass', 'system', created),
                  record('approval', 'pass', 'admin', decided),
                  record('finish', 'pass', 'admin', decided),
                ]
              : [record('commit', 'pass', 'system', created), record('approval', 'auditing', null, created)],
          );
      }
    });
  }
}
