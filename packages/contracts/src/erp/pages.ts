import type { CatalogueRoute } from '../routes';

type Page = { name: string; path: string; locale: string };

/**
 * Where each ERP entity lives in the app, as plain data: the route catalogue is loaded by the sign-in
 * page, which must not download the entities' schemas. The manifests take their `route` and `detail`
 * from here; `test/erp/manifest.test.ts` checks that pages, permissions and server routes agree.
 */
export const erpPages = {
  warehouse: { route: { name: 'erpWarehouses', path: '/erp/warehouses', locale: 'menu.erp.warehouses' } },
  spec: { route: { name: 'erpSpecs', path: '/erp/specs', locale: 'menu.erp.specs' } },
  category: { route: { name: 'productCategories', path: '/erp/product-categories', locale: 'menu.erp.productCategories' } },
  supplier: { route: { name: 'erpSupplier', path: '/erp/supplier', locale: 'menu.erp.supplier' } },
  product: {
    route: { name: 'erpProducts', path: '/erp/products', locale: 'menu.erp.products' },
    detail: { name: 'erpProductsDetail', path: '/erp/products/detail/:id', locale: 'menu.erp.productsDetail' },
  },
  member: {
    route: { name: 'systemUserMember', path: '/erp/member', locale: 'menu.erp.member' },
    detail: { name: 'userDetailMember', path: '/erp/member/detail/:id', locale: 'menu.erp.memberDetail' },
  },
  sale: { route: { name: 'erpSale', path: '/erp/sale', locale: 'menu.erp.sale' } },
  activity: { route: { name: 'erpActivity', path: '/erp/activity', locale: 'menu.erp.activity' } },
} satisfies Record<string, { route: Page; detail?: Page }>;

const any = ['*'];

/** The ERP menu's routes in menu order (the printer page belongs to its own issue). */
export function erpCatalogueRoutes(): CatalogueRoute[] {
  const routes: CatalogueRoute[] = [];
  for (const [entity, page] of Object.entries(erpPages) as [string, { route: Page; detail?: Page }][]) {
    const { route, detail } = page;
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
      routes.push({ name: 'mallPrinter', path: '/erp/printer', meta: { locale: 'menu.erp.printer', requiresAuth: true, roles: any } });
    }
  }
  return routes;
}
