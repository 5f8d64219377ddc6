import { erpCatalogueRoutes } from '@atrium/contracts/erp/pages';
import type { ComponentType } from 'react';
import { entityPages, listRoutes } from '../../crud/entity-pages';

type PageLoader = () => Promise<ComponentType>;

/** The ERP pages of their own; a test checks each is a route of the ERP catalogue. */
const ownPages: Record<string, PageLoader> = {
  erpProducts: () => import('./product/ProductPage').then((m) => m.ProductPage),
  erpProductsDetail: () => import('./product/ProductDetailPage').then((m) => m.ProductDetailPage),
  userDetailMember: () => import('./member/MemberDetailPage').then((m) => m.MemberDetailPage),
  erpSale: () => import('./sale/SalePage').then((m) => m.SalePage),
  erpActivity: () => import('./activity/ActivityPage').then((m) => m.ActivityPage),
};

/**
 * ERP route name → page: every entity list of the ERP menu renders its manifest through the generic
 * page (`crud/EntityPage`), unless it has a page of its own above.
 */
export const erpPages: Record<string, PageLoader> = {
  ...entityPages(listRoutes(erpCatalogueRoutes()), async () => {
    const [, { erpEntities }] = await Promise.all([import('./messages'), import('@atrium/contracts/erp/manifest')]);
    return erpEntities;
  }),
  ...ownPages,
};
