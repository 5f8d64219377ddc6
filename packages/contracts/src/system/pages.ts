/**
 * The system pages the generic page renders from an entity's manifest: entity → its route in the route
 * catalogue (`routes.ts`). Plain data: the web app's page map reads it without loading the schemas.
 */
export const systemEntityPages = { post: 'systemPost' } as const;

export type SystemEntityName = keyof typeof systemEntityPages;
