/**
 * The release entities on the manifest machinery: entity → its page's route in the route catalogue
 * (`routes.ts`). The generic page renders them. Plain data: the page map reads it without loading the schemas.
 */
export const releaseEntityPages = {
  project: 'releaseProject',
  userProject: 'releaseUserProject',
} as const;
