import { releaseEntityPages } from '@atrium/contracts/release-pages';
import type { ComponentType } from 'react';
import { entityPages } from '../../crud/entity-pages';

type PageLoader = () => Promise<ComponentType>;

/** The release pages of their own: the scripts' editor and history, the variables, the steps, the agents, the tasks. */
const ownPages: Record<string, PageLoader> = {
  releaseAbility: () => import('./AbilityPage').then((m) => m.AbilityPage),
  releaseClient: () => import('./ClientPage').then((m) => m.ClientPage),
  releaseEnv: () => import('./EnvPage').then((m) => m.EnvPage),
  releaseProcess: () => import('./ProcessPage').then((m) => m.ProcessPage),
  releaseTask: () => import('./TaskPage').then((m) => m.TaskPage),
};

/**
 * Release route name → page: the entities of `releaseEntityPages` render their manifest through the
 * generic page (`crud/EntityPage`); the rest have pages of their own.
 */
export const releasePages: Record<string, PageLoader> = {
  ...entityPages(
    Object.values(releaseEntityPages).filter((name) => !(name in ownPages)),
    async () => {
      const [, { releaseEntities }] = await Promise.all([import('./messages'), import('@atrium/contracts/release-entities')]);
      return releaseEntities;
    },
  ),
  ...ownPages,
};
