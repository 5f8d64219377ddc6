/**
 * The release entities on the manifest machinery: entity → its page's route in the route catalogue
 * (`routes.ts`). The generic page renders those the web app's page map names no page of its own for.
 * Plain data: the page map reads it without loading the schemas.
 */
export const releaseEntityPages = {
  ability: 'releaseAbility',
  client: 'releaseClient',
  project: 'releaseProject',
  env: 'releaseEnv',
  userProject: 'releaseUserProject',
  process: 'releaseProcess',
  task: 'releaseTask',
} as const;
