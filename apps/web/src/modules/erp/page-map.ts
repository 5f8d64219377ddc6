import type { ComponentType } from 'react';

type PageLoader = () => Promise<ComponentType>;

/**
 * ERP route name → page. Entities with field metadata and no special needs render through the generic
 * `EntityPage`; the rest have their own page. A test checks every ERP catalogue route is here.
 */
export const erpPages: Record<string, PageLoader> = {
  erpWarehouses: () => import('./generic').then((m) => m.WarehousePage),
  erpSpecs: () => import('./generic').then((m) => m.SpecPage),
  productCategories: () => import('./generic').then((m) => m.CategoryPage),
  erpSupplier: () => import('./generic').then((m) => m.SupplierPage),
  systemUserMember: () => import('./generic').then((m) => m.MemberPage),
  erpProducts: () => import('./product/ProductPage').then((m) => m.ProductPage),
  erpProductsDetail: () => import('./product/ProductDetailPage').then((m) => m.ProductDetailPage),
  userDetailMember: () => import('./member/MemberDetailPage').then((m) => m.MemberDetailPage),
  erpSale: () => import('./sale/SalePage').then((m) => m.SalePage),
  erpActivity: () => import('./activity/ActivityPage').then((m) => m.ActivityPage),
};
