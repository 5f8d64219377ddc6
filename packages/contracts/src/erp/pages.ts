import type { CatalogueRoute } from '../routes';

type Label = { zh: string; en: string };
type Page = { name: string; path: string; locale: string };
/** A detail page is its list page's path and locale with `/detail/:id` and `Detail` added, under its own name. */
type Entry = { menu: Label; route?: Page; detail?: { name: string; menu: Label } };

/**
 * The ERP menu in order, as plain data: each entity's menu label in both languages, and its page where
 * it does not follow the convention (`erpSupplier` at `/erp/supplier`, labelled by `menu.erp.supplier`).
 * The route catalogue is loaded by the sign-in page, which must not download the entities' schemas;
 * the manifests take their `route` and `detail` from here (`erpRoute`), the web app its menu labels
 * (`erpMenuLabels`), and `test/erp/manifest.test.ts` checks that pages, manifests and server routes agree.
 */
export const erpPages = {
  warehouse: {
    menu: { zh: '仓库管理', en: 'Warehouses' },
    route: { name: 'erpWarehouses', path: '/erp/warehouses', locale: 'menu.erp.warehouses' },
  },
  spec: { menu: { zh: '规格管理', en: 'Specs' }, route: { name: 'erpSpecs', path: '/erp/specs', locale: 'menu.erp.specs' } },
  category: {
    menu: { zh: '商品分类', en: 'Product Categories' },
    route: { name: 'productCategories', path: '/erp/product-categories', locale: 'menu.erp.productCategories' },
  },
  supplier: { menu: { zh: '供应商', en: 'Suppliers' } },
  product: {
    menu: { zh: '商品管理', en: 'Products' },
    route: { name: 'erpProducts', path: '/erp/products', locale: 'menu.erp.products' },
    detail: { name: 'erpProductsDetail', menu: { zh: '商品详情', en: 'Product Details' } },
  },
  member: {
    menu: { zh: '会员管理', en: 'Members' },
    route: { name: 'systemUserMember', path: '/erp/member', locale: 'menu.erp.member' },
    detail: { name: 'userDetailMember', menu: { zh: '会员详情', en: 'Member Details' } },
  },
  sale: { menu: { zh: '销售订单', en: 'Sales Orders' } },
  activity: { menu: { zh: '活动管理', en: 'Activities' } },
} satisfies Record<string, Entry>;

export type ErpPageName = keyof typeof erpPages;

/** The printer page sits in the ERP menu after the products and belongs to the mall. */
const printer = {
  route: { name: 'mallPrinter', path: '/erp/printer', locale: 'menu.erp.printer' },
  menu: { zh: '打印机管理', en: 'Printers' },
};

/** An entity's page: its own, or the convention's. */
export function erpRoute(entity: ErpPageName): Page {
  const entry: Entry = erpPages[entity];
  const name = `erp${entity[0]?.toUpperCase()}${entity.slice(1)}`;
  return entry.route ?? { name, path: `/erp/${entity}`, locale: `menu.erp.${entity}` };
}

/** An entity's hidden detail page, if it has one. */
export function erpDetail(entity: ErpPageName): Page | undefined {
  const detail = (erpPages[entity] as Entry).detail;
  const list = erpRoute(entity);
  return detail && { name: detail.name, path: `${list.path}/detail/:id`, locale: `${list.locale}Detail` };
}

const entries = () => Object.entries(erpPages) as [ErpPageName, Entry][];

/** The ERP menu's labels, key → words, in each language. */
export const erpMenuLabels: Record<'zh' | 'en', Record<string, string>> = { zh: {}, en: {} };
for (const [entity, entry] of entries()) {
  for (const [key, label] of [
    [erpRoute(entity).locale, entry.menu] as const,
    ...(entry.detail ? [[(erpDetail(entity) as Page).locale, entry.detail.menu] as const] : []),
  ]) {
    erpMenuLabels.zh[key] = label.zh;
    erpMenuLabels.en[key] = label.en;
  }
  if (entity === 'product') {
    erpMenuLabels.zh[printer.route.locale] = printer.menu.zh;
    erpMenuLabels.en[printer.route.locale] = printer.menu.en;
  }
}

const any = ['*'];

/** The ERP menu's routes in menu order (the printer page belongs to its own issue). */
export function erpCatalogueRoutes(): CatalogueRoute[] {
  const routes: CatalogueRoute[] = [];
  for (const [entity] of entries()) {
    const route = erpRoute(entity);
    const detail = erpDetail(entity);
    routes.push({
      name: route.name,
      path: route.path,
      permission: `erp:${entity}:list`,
      meta: { locale: route.locale, requiresAuth: true, roles: any },
    });
    if (detail) {
      routes.push({
        name: detail.name,
        path: detail.path,
        permission: `erp:${entity}:query`,
        meta: { locale: detail.locale, requiresAuth: true, roles: any, hideInMenu: true, activeMenu: route.name },
      });
    }
    if (entity === 'product') {
      routes.push({
        name: printer.route.name,
        path: printer.route.path,
        meta: { locale: printer.route.locale, requiresAuth: true, roles: any },
      });
    }
  }
  return routes;
}
