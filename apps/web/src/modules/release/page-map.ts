import type { ComponentType } from 'react';

type PageLoader = () => Promise<ComponentType>;

/** Release route name → its lazily loaded page. */
export const releasePages: Record<string, PageLoader> = {
  releaseAbility: () => import('./AbilityPage').then((m) => m.AbilityPage),
  releaseClient: () => import('./ClientPage').then((m) => m.ClientPage),
  releaseEnv: () => import('./EnvPage').then((m) => m.EnvPage),
  releaseProject: () => import('./ProjectPage').then((m) => m.ProjectPage),
  releaseProcess: () => import('./ProcessPage').then((m) => m.ProcessPage),
  releaseTask: () => import('./TaskPage').then((m) => m.TaskPage),
  releaseUserProject: () => import('./UserProjectPage').then((m) => m.UserProjectPage),
};
