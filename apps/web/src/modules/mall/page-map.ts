import type { ComponentType } from 'react';

type PageLoader = () => Promise<ComponentType>;

/** Mall and printer route names → their lazily loaded pages. */
export const mallPages: Record<string, PageLoader> = {
  mallGoods: () => import('./GoodsPage').then((m) => m.GoodsPage),
  mallGoodsUpdate: () => import('./GoodsUpdatePage').then((m) => m.GoodsUpdatePage),
  mallPrinter: () => import('./PrinterPage').then((m) => m.PrinterPage),
};
