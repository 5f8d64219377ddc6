import { erpEn, erpZh } from './erp/messages';
import type { Label } from './labels';
import { listEn, listZh } from './list/messages';
import { releaseEn, releaseZh } from './release-messages';
import { systemEn, systemZh } from './system/messages';

/** Labels the manifests share with the rest of the app (the web app has them in its crud strings). */
const sharedLabels: Record<string, Label> = {
  'crud.status': { zh: '状态', en: 'Status' },
  'crud.createTime': { zh: '创建时间', en: 'Created' },
  'crud.remark': { zh: '备注', en: 'Remark' },
  'crud.orderNum': { zh: '排序', en: 'Order' },
  'status.0': { zh: '正常', en: 'Normal' },
  'status.1': { zh: '停用', en: 'Disabled' },
  // the mall goods' export columns
  'mall.goods.title': { zh: '商品标题', en: 'Title' },
  'mall.goods.productCode': { zh: '商品编码', en: 'Product code' },
  'mall.goods.category': { zh: '分类', en: 'Category' },
  'mall.goods.price': { zh: '商城价（元）', en: 'Mall price (yuan)' },
  'mall.goods.stock': { zh: '库存', en: 'Stock' },
  'mall.goods.shelf': { zh: '上架状态', en: 'Shelf' },
};

/** Each domain's strings as the contracts hold them once (the web app registers the same bundles). */
const domains: { zh: Record<string, string>; en: Record<string, string> }[] = [
  { zh: erpZh, en: erpEn },
  { zh: systemZh, en: systemEn },
  { zh: listZh, en: listEn },
  { zh: releaseZh, en: releaseEn },
];

/** A manifest label in both languages, or the key itself when no bundle has it. */
export function bilingual(key: string): Label {
  const found = sharedLabels[key];
  if (found) return found;
  const domain = domains.find((d) => key in d.zh);
  return { zh: domain?.zh[key] ?? key, en: domain?.en[key] ?? key };
}
