import type { ComponentType } from 'react';
import { erpPages } from '../modules/erp/page-map';
import { mallPages } from '../modules/mall/page-map';
import { releasePages } from '../modules/release/page-map';
import { systemPages } from '../modules/system/page-map';

export type PageLoader = () => Promise<ComponentType>;

/**
 * Route name (from the route catalogue) → its lazily loaded page. A route without an entry shows the
 * "coming soon" state. Add a page with one line.
 */
export const pages: Record<string, PageLoader> = {
  Staging: () => import('../modules/staging/StagingPage').then((m) => m.StagingPage),
  Workplace: () => import('../modules/dashboard/workplace/WorkplacePage').then((m) => m.WorkplacePage),
  Monitor: () => import('../modules/dashboard/monitor/MonitorPage').then((m) => m.MonitorPage),
  DataAnalysis: () => import('../modules/visualization/DataAnalysisPage').then((m) => m.DataAnalysisPage),
  MultiDAnalysis: () => import('../modules/visualization/MultiDimensionPage').then((m) => m.MultiDimensionPage),
  Basic: () => import('../modules/profile/BasicProfilePage').then((m) => m.BasicProfilePage),
  '403': () => import('../modules/exception/ExceptionPages').then((m) => m.ForbiddenPage),
  '404': () => import('../modules/exception/ExceptionPages').then((m) => m.GonePage),
  '500': () => import('../modules/exception/ExceptionPages').then((m) => m.ServerErrorPage),
  Info: () => import('../modules/user/info/UserInfoPage').then((m) => m.UserInfoPage),
  Setting: () => import('../modules/user/setting/UserSettingPage').then((m) => m.UserSettingPage),
  Step: () => import('../modules/form/StepFormPage').then((m) => m.StepFormPage),
  Group: () => import('../modules/form/GroupFormPage').then((m) => m.GroupFormPage),
  SearchTable: () => import('../modules/list/SearchTablePage').then((m) => m.SearchTablePage),
  Card: () => import('../modules/list/CardListPage').then((m) => m.CardListPage),
  Success: () => import('../modules/result/ResultPages').then((m) => m.SuccessResultPage),
  Error: () => import('../modules/result/ResultPages').then((m) => m.ErrorResultPage),
  systemNotice: () => import('../modules/realtime/NoticePage').then((m) => m.NoticePage),
  Notification: () => import('../modules/realtime/NotificationPage').then((m) => m.NotificationPage),
  ...systemPages,
  ...erpPages,
  ...releasePages,
  ...mallPages,
};
