/**
 * The system entities on the manifest machinery: entity → its page's route in the route catalogue
 * (`routes.ts`). The generic page renders those whose manifest has fields, unless the web app's page map
 * names a page of their own. Plain data: the page map reads it without loading the schemas.
 */
export const systemEntityPages = {
  post: 'systemPost',
  dept: 'systemDept',
  role: 'systemRole',
  operlog: 'systemOperlog',
  loginlog: 'systemLoginlog',
  session: 'systemSession',
  menu: 'systemMenu',
  tenant: 'systemTenant',
  user: 'systemUser',
} as const;

export type SystemEntityName = keyof typeof systemEntityPages;
