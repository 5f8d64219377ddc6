/**
 * The system entities on the manifest machinery: entity → its page's route in the route catalogue
 * (`routes.ts`). The generic page renders them but for those the web app's page map gives a page of
 * their own (departments, roles). Plain data: the page map reads it without loading the schemas.
 */
export const systemEntityPages = { post: 'systemPost', dept: 'systemDept', role: 'systemRole' } as const;

export type SystemEntityName = keyof typeof systemEntityPages;
