import { setContentTypes, setFilterTypes } from '@atrium/contracts';
import { count, eq } from 'drizzle-orm';
import { type Database, withTenant } from '../db/client';
import { listSets, tenants } from '../db/schema';

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
